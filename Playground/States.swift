// States: a store's states as an AsyncSequence, and a listener told only when its part changed.
//
// Run it:     Playground/run States
// In an app:  scripts, tests and code outside SwiftUI consume `store.states` in a `for await`
//             loop; `subscribe(to:)` is Redux's `select` with `skipRepeats`.

import MiniRedux

enum Todos {
  struct State: Sendable {
    var todos: [String] = []
    var filter = ""
    var count: Int { todos.count }
  }
  enum Action: Sendable {
    case add(String)
    case filterChanged(String)
  }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .add(let todo): state.todos.append(todo)
    case .filterChanged(let filter): state.filter = filter
    }
    return .none
  }
}

let store = Store(initialState: Todos.State(), Todos.reduce)

// The listener hears the count at once, then only after a send that changed it.
let subscription = store.subscribe(to: \.todos.count) { count in print("todos:", count) }
store.send(.filterChanged("milk"))  // the count did not change: nothing printed
// todos: 0

// The sequence yields the state now, then after each send. A consumer slower than the sends
// would get the newest state when it asks, skipping those in between.
for await state in store.states {
  print("count:", state.count)
  if state.count == 2 { break }
  store.send(.add("todo \(state.count + 1)"))
}
// count: 0
// todos: 1
// count: 1
// todos: 2
// count: 2

// Leaving the loop ended its listener; the subscription ends when cancelled.
subscription.cancel()
store.send(.add("todo 3"))
print("after cancel(), nothing printed; the store holds", store.state.count, "todos")
// after cancel(), nothing printed; the store holds 3 todos
