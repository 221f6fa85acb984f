// Counter: the smallest feature, a State, an Action and a reducer, driven by a few sends.
//
// Run it:         Playground/run Counter
// In an app:      keep `struct Counter` as it is, create the store once (a SwiftUI view can hold it
//                 in `@State`), show `store.state.count`, and call `store.send` from the buttons.
//                 Seed 004's README does exactly that with `CounterView`.

import MiniRedux

struct Counter {
  struct State {
    var count = 0
  }
  enum Action {
    case incrementTapped
    case decrementTapped
  }
  @MainActor static func store() -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .decrementTapped:
        state.count -= 1
        return .none
      }
    }
  }
}

// NB: Top-level code runs on the main actor only when it contains an `await`; this script
// awaits each send (its effects, none here, end before `finish()` returns), which keeps the
// habit and the isolation.
let store = Counter.store()
print("count:", store.state.count)  // count: 0

await store.send(.incrementTapped).finish()
print("tapped +, count:", store.state.count)  // tapped +, count: 1

await store.send(.incrementTapped).finish()
print("tapped +, count:", store.state.count)  // tapped +, count: 2

await store.send(.decrementTapped).finish()
print("tapped -, count:", store.state.count)  // tapped -, count: 1
