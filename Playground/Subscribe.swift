// Subscribe: a command-line consumer, no SwiftUI, that prints state changes via `subscribe`.
//
// Run it:     Playground/run Subscribe
// In an app:  a server, a CLI tool or a test subscribes the same way; keep the subscription and
//             cancel it when you stop listening. SwiftUI views observe the store instead.

import MiniRedux

struct Download {
  struct State {
    var status = "idle"
    var chunks = 0
    let totalChunks = 4
  }
  enum Action {
    case startTapped
    case chunkReceived
    case checksumVerified
  }

  @MainActor static func store() -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .startTapped:
        state.status = "downloading"
        state.chunks = 0
        let total = state.totalChunks
        return .run { send in
          for _ in 1...total {
            await send(.chunkReceived)
          }
        }
      case .chunkReceived:
        state.chunks += 1
        guard state.chunks == state.totalChunks else { return .none }
        state.status = "verifying"
        return .send(.checksumVerified)
      case .checksumVerified:
        state.status = "done"
        return .none
      }
    }
  }
}

/// One line of terminal output per state.
func progressLine(_ state: Download.State) -> String {
  let filled = state.chunks * 10 / state.totalChunks
  let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 10 - filled)
  let percent = String(state.chunks * 100 / state.totalChunks)
  return "[\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)% \(state.status)"
}

let store = Download.store()

// The listener hears the current state at once, then the state after each `send`: the store's,
// and each one an effect makes.
let subscription = store.subscribe { state in print(progressLine(state)) }
await store.send(.startTapped).finish()
// [          ]   0% idle
// [          ]   0% downloading
// [##        ]  25% downloading
// [#####     ]  50% downloading
// [#######   ]  75% downloading
// [##########] 100% done

// The last chunk's `.send(.checksumVerified)` was reduced inside the same send, so "verifying"
// was never heard: one notification per send, not per action. Wrap the reducer to see every
// action (Playground/run Middleware).

subscription.cancel()
await store.send(.startTapped).finish()
print("after cancel(), nothing printed; the store still ran:", store.state.status)
// after cancel(), nothing printed; the store still ran: done
