// Counter: the smallest feature: a State, an Action, a reducer, and a few sends.
//
// Run it:     Playground/run Counter
// In an app:  keep `struct Counter` as it is, create the store once (a SwiftUI view can hold it
//             in `@State`), show `store.state.count`, and call `store.send` from the buttons, as
//             the `CounterView` of the original MiniRedux README does.

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

// NB: In the Swift 6 language mode, which Playground/run uses, top-level code runs on the main
// actor, where a store lives, and top-level variables such as `store` are main-actor isolated.
// A send is awaited only to wait for its effects; with none, `finish()` returns at once.
let store = Counter.store()
print("count:", store.state.count)  // count: 0

await store.send(.incrementTapped).finish()
print("tapped +, count:", store.state.count)  // tapped +, count: 1

await store.send(.incrementTapped).finish()
print("tapped +, count:", store.state.count)  // tapped +, count: 2

await store.send(.decrementTapped).finish()
print("tapped -, count:", store.state.count)  // tapped -, count: 1
