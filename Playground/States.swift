// States: a store's states as an AsyncSequence, for scripts, tests and code outside SwiftUI.
//
// Run it:     Playground/run States
// In an app:  code that waits for a state (a command-line tool, a test, a server) loops over
//             `store.states`; leaving the loop ends its listener.

import MiniRedux

enum Counter {
  struct State: Sendable {
    var count = 0
  }
  enum Action: Sendable {
    case incrementTapped
  }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

let store = Store(initialState: Counter.State(), Counter.reduce)

// The sequence yields the state now, then after each send. A consumer slower than the sends
// gets the newest state when it asks, not each one it missed: after 2, three sends, then 5.
for await state in store.states {
  print("count:", state.count)
  if state.count == 5 { break }
  for _ in 0..<(state.count == 2 ? 3 : 1) { store.send(.incrementTapped) }
}
// count: 0
// count: 1
// count: 2
// count: 5

// Leaving the loop ended its listener: the store tells no one of this send.
store.send(.incrementTapped)
print("the store holds", store.state.count)
// the store holds 6
