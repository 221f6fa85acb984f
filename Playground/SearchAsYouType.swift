// SearchAsYouType: a movie search: one request per pause, never a stale answer.
//
// Quick typing makes one request, after a 300 ms debounce, and the answer to an older query,
// even one the server sends anyway, never lands.
//
// Run it:     Playground/run SearchAsYouType   (it waits out the real 300 ms debounce twice)
// In an app:  bind a text field to `.searchQueryChanged`, list `store.state.movies`, and make
//             `MovieServer.search` a URLSession request.
//
// The script plays the server: each search waits until the script answers it, so the order of
// events is fixed and the trace is the same on every run.

import MiniRedux

/// A movie server answered by hand: each search waits until the script replies to it. Like a
/// slow network, it answers a cancelled request too.
@MainActor final class MovieServer {
  struct Request {
    let query: String
    let reply: CheckedContinuation<[String], Never>
  }
  private var requests: [Request] = []
  private var waiter: CheckedContinuation<Request, Never>?

  func search(_ query: String) async -> [String] {
    await withCheckedContinuation { reply in
      let request = Request(query: query, reply: reply)
      if let waiter {
        self.waiter = nil
        waiter.resume(returning: request)
      } else {
        requests.append(request)
      }
    }
  }

  func nextRequest() async -> Request {
    if !requests.isEmpty { return requests.removeFirst() }
    return await withCheckedContinuation { waiter = $0 }
  }
}

struct Search {
  struct State {
    var query = ""
    var movies: [String] = []
    var answered: [String] = []  // the queries whose responses landed
  }
  enum Action {
    case searchQueryChanged(String)
    case moviesResponse(query: String, movies: [String])
  }
  enum CancelID { case search }

  @MainActor static func store(server: MovieServer) -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .searchQueryChanged(let query):
        state.query = query
        guard !query.isEmpty else {
          state.movies = []
          return .cancel(id: CancelID.search)
        }
        // A newer keystroke restarts the wait and cancels a request in flight for an older one.
        return .run { send in
          await send(.moviesResponse(query: query, movies: await server.search(query)))
        }
        .debounce(id: CancelID.search, for: .milliseconds(300))
      case .moviesResponse(let query, let movies):
        state.movies = movies
        state.answered.append(query)
        return .none
      }
    }
  }
}

let server = MovieServer()
let store = Search.store(server: server)

// Three quick keystrokes, with no `await` between them.
store.send(.searchQueryChanged("b"))
store.send(.searchQueryChanged("ba"))
let typedBat = store.send(.searchQueryChanged("bat"))
print("typed:", store.state.query)  // typed: bat

let bat = await server.nextRequest()
print("server got:", bat.query)  // server got: bat

// The user types on while "bat" is in flight; the server answers "bat" anyway.
let typedBatm = store.send(.searchQueryChanged("batm"))
print("typed:", store.state.query)  // typed: batm
bat.reply.resume(returning: ["Batman", "Batman Begins", "The Batman"])
await typedBat.finish()
print("after the stale answer:", store.state.movies, store.state.answered)
// after the stale answer: [] []

let batm = await server.nextRequest()
print("server got:", batm.query)  // server got: batm
batm.reply.resume(returning: ["Batman"])
await typedBatm.finish()
print("results:", store.state.movies, "answered:", store.state.answered)
// results: ["Batman"] answered: ["batm"]

await store.send(.searchQueryChanged("")).finish()
print("cleared:", store.state.movies)  // cleared: []
