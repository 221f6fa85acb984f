// LoadUser: a load that succeeds and one that fails; `catch:` turns the error into an action.
//
// Run it:     Playground/run LoadUser
// In an app:  make `UserService.fetchUser` a real request and show the three states: loading,
//             the user, or the error message with a retry button that sends `.loadUser` again.
//
// Without `catch:`, a thrown error would be written to standard error with the action that
// started the effect, and the state would stay "loading" forever.

import MiniRedux

struct User: Sendable {
  let id: Int
  let name: String
}

struct UserNotFound: Error, CustomStringConvertible {
  let id: Int
  var description: String { "no user with id \(id)" }
}

/// A stand-in for a user API that knows two users.
struct UserService: Sendable {
  func fetchUser(id: Int) async throws -> User {
    switch id {
    case 1: return User(id: 1, name: "Ada Lovelace")
    case 2: return User(id: 2, name: "Grace Hopper")
    default: throw UserNotFound(id: id)
    }
  }
}

struct Profile {
  struct State {
    var user: User?
    var isLoading = false
    var errorMessage: String?
  }
  enum Action {
    case loadUser(id: Int)
    case userLoaded(User)
    case loadFailed(String)
  }

  @MainActor static func store(service: UserService) -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .loadUser(let id):
        state.isLoading = true
        state.errorMessage = nil
        return .run { send in
          await send(.userLoaded(try await service.fetchUser(id: id)))
        } catch: { error, send in
          await send(.loadFailed("\(error)"))
        }
      case .userLoaded(let user):
        state.isLoading = false
        state.user = user
        return .none
      case .loadFailed(let message):
        state.isLoading = false
        state.errorMessage = message
        return .none
      }
    }
  }
}

/// What a screen would show.
func screen(_ state: Profile.State) -> String {
  if state.isLoading { return "loading..." }
  if let message = state.errorMessage { return "error: \(message) [Retry]" }
  if let user = state.user { return "user #\(user.id): \(user.name)" }
  return "nobody yet"
}

let store = Profile.store(service: UserService())
print(screen(store.state))  // nobody yet

let success = store.send(.loadUser(id: 1))
print(screen(store.state))  // loading...
await success.finish()
print(screen(store.state))  // user #1: Ada Lovelace

let failure = store.send(.loadUser(id: 42))
print(screen(store.state))  // loading...
await failure.finish()
print(screen(store.state))  // error: no user with id 42 [Retry]

await store.send(.loadUser(id: 2)).finish()
print(screen(store.state))  // user #2: Grace Hopper
