// InitialAction: a store that starts loading the moment it is created.
//
// Run it:     Playground/run InitialAction
// In an app:  create the store where the screen is created (a SwiftUI view's `@State`), and the
//             load starts with it. To tie the load to the view's lifetime instead, send `.load`
//             from `.task { await store.send(.load).finish() }`, which you can await and cancel.

import MiniRedux

/// A stand-in for a news service.
func fetchHeadlines() async throws -> [String] {
  ["Swift 6 ships", "Reducers stay pure", "Effects learn to cancel"]
}

struct Feed {
  struct State {
    var isLoading = false
    var headlines: [String] = []
  }
  enum Action {
    case load
    case loaded([String])
    case failed(String)
  }

  @MainActor static func store() -> Store<State, Action> {
    // `initialAction` is reduced inside `init`, and the effect it returns starts then.
    return Store(initialState: State(), initialAction: .load) { state, action in
      switch action {
      case .load:
        state.isLoading = true
        return .run { send in
          await send(.loaded(try await fetchHeadlines()))
        } catch: { error, send in
          await send(.failed("\(error)"))
        }
      case .loaded(let headlines):
        state.isLoading = false
        state.headlines = headlines
        return .none
      case .failed:
        state.isLoading = false
        return .none
      }
    }
  }
}

let store = Feed.store()
print("right after init, isLoading:", store.state.isLoading)  // right after init, isLoading: true

// Nothing hands back the initial action's effects to await, so listen to the state until the
// headlines land. `subscribe` calls the listener with the current state first.
let (states, continuation) = AsyncStream.makeStream(of: Feed.State.self)
let subscription = store.subscribe { state in continuation.yield(state) }
for await state in states {
  print(state.isLoading ? "heard: loading..." : "heard: \(state.headlines.count) headlines")
  if !state.isLoading { break }
}
subscription.cancel()
// heard: loading...
// heard: 3 headlines

for headline in store.state.headlines {
  print("-", headline)
}
// - Swift 6 ships
// - Reducers stay pure
// - Effects learn to cancel
