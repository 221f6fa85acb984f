// Selection: a listener told only when its part of the state changed, as Redux's select and
// skipRepeats.
//
// Run it:     Playground/run Selection
// In an app:  code outside SwiftUI (a server, a CLI tool, a test) subscribes to the part it shows;
//             keep the subscription and cancel it when you stop listening.

import MiniRedux

enum Todos {
  struct State {
    var todos: [String] = []
    var filter = ""
  }
  enum Action {
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
// todos: 0
store.send(.filterChanged("milk"))  // the count did not change: nothing printed
store.send(.add("Buy milk"))
// todos: 1
store.send(.add("Walk the dog"))
// todos: 2

// The subscription ends when cancelled; dropping it does not end it.
subscription.cancel()
await store.send(.add("Call mom")).finish()
print("after cancel(), nothing printed; the store holds", store.state.todos.count, "todos")
// after cancel(), nothing printed; the store holds 3 todos
