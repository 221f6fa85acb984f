// Middleware: wrap a reducer to log every action: `printChanges`, or a wrapper of your own.
//
// Unlike a subscriber, a wrapper sees every action, including those that effects send back.
//
// Run it:     Playground/run Middleware
// In an app:  wrap the reducer where you create the store, `Store(initialState: ...,
//             printChanges(Counter.reduce))`, perhaps only `#if DEBUG`. Analytics, validation or
//             undo wrap a reducer the same way, as `logging` below does by hand.

import MiniRedux

/// Wraps `reducer` so that each action, and each property of the state it changed, is printed.
func logging<State, Action>(
  _ reducer: @escaping Reducer<State, Action>
) -> Reducer<State, Action> {
  return { state, action in
    let before = state
    let effect = reducer(&state, action)
    print("action:", action)
    let changes = zip(Mirror(reflecting: before).children, Mirror(reflecting: state).children)
      .compactMap { old, new -> String? in
        let (was, now) = (String(reflecting: old.value), String(reflecting: new.value))
        return was == now ? nil : "  \(old.label ?? "_"): \(was) -> \(now)"
      }
    print(changes.isEmpty ? "  (no change)" : changes.joined(separator: "\n"))
    return effect
  }
}

struct Counter {
  struct State {
    var count = 0
    var fact = ""
    var isLoadingFact = false
  }
  enum Action {
    case incrementTapped
    case decrementTapped
    case factButtonTapped
    case factLoaded(String)
  }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .decrementTapped:
      state.count -= 1
      return .none
    case .factButtonTapped:
      state.isLoadingFact = true
      let count = state.count
      return .run { send in
        await send(.factLoaded("\(count) is the loneliest number"))
      }
    case .factLoaded(let fact):
      state.isLoadingFact = false
      state.fact = fact
      return .none
    }
  }
}

// The one-line way: `printChanges` prints each action, then a diff of the state (`-` before,
// `+` after).
let store = Store(initialState: Counter.State(), printChanges(Counter.reduce))
await store.send(.incrementTapped).finish()
await store.send(.factButtonTapped).finish()
// received .incrementTapped
//   Counter.State(
// -   count: 0
// +   count: 1
//     fact: ""
//     isLoadingFact: false
//   )
// received .factButtonTapped
//   Counter.State(
//     count: 1
//     fact: ""
// -   isLoadingFact: false
// +   isLoadingFact: true
//   )
// received .factLoaded("1 is the loneliest number")
//   Counter.State(
//     count: 1
// -   fact: ""
// -   isLoadingFact: true
// +   fact: "1 is the loneliest number"
// +   isLoadingFact: false
//   )

// By hand: `logging` wraps the reducer the same way, and prints only the properties it changed.
let logged = Store(initialState: Counter.State(), logging(Counter.reduce))
await logged.send(.incrementTapped).finish()
await logged.send(.factButtonTapped).finish()
await logged.send(.decrementTapped).finish()
// action: incrementTapped
//   count: 0 -> 1
// action: factButtonTapped
//   isLoadingFact: false -> true
// action: factLoaded("1 is the loneliest number")
//   fact: "" -> "1 is the loneliest number"
//   isLoadingFact: true -> false
// action: decrementTapped
//   count: 1 -> 0
