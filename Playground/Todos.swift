// Todos: a list of rows, each scoped to its own store; only the row that changed is notified.
//
// Run it:     Playground/run Todos
// In an app:  give each row view the store `rowStore(id:)` returns for its row (an optional
//             `store.scope`); the row view sends `.saveTapped` or `.deleteTapped` and never sees
//             the list. The list's reducer is the one place that adds and removes rows.
//
// `forEach` embeds the row feature: it runs the row's reducer on the row an action names, then
// the list's, and cancels a row's effects (its save in flight) in the send that removes the row.
// A row's state is `Equatable`, so a row's store notifies its observers (a SwiftUI row view, a
// `subscribe` listener) only when its own row changed.
//
// By hand (find the row, call its reducer, `map` its effect, make it `.cancellable` under an id
// type of its own, `.cancel` that id on delete) the list's reducer took 16 lines: a 14-line switch
// and the 2-line id type. With `forEach` it takes 12: a 10-line switch and the 2-line `Reduce`.
// Four lines saved; the real gain is that no `.cancel` can be forgotten.

import MiniRedux

/// One row: a feature of its own, which knows nothing about the list.
struct Todo {
  struct State: Equatable, Identifiable {
    let id: Int
    var title: String
    var isSaved = false
  }
  enum Action {
    case titleChanged(String)
    case saveTapped
    case saved
    case deleteTapped
    /// What a row tells its parent. The parent reacts; the row's reducer ignores these.
    case delegate(Delegate)
    enum Delegate { case delete }
  }

  /// A save to a "server" that answers after 100 ms.
  @MainActor static func reduce(_ row: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .titleChanged(let title):
      row.title = title
      return .none
    case .saveTapped:
      return .run { send in
        try await Task.sleep(for: .milliseconds(100))
        await send(.saved)
      }
    case .saved:
      row.isSaved = true
      return .none
    case .deleteTapped:
      return .send(.delegate(.delete))
    case .delegate:
      return .none
    }
  }
}

/// The list: owns the rows, embeds the row feature, and handles the rows' delegate actions.
struct Todos {
  struct State {
    var rows: [Todo.State] = []
    var nextID = 1
  }
  enum Action {
    case add(String)
    case row(id: Int, Todo.Action)
  }

  /// The list's own part: `forEach` has already run the row's reducer for a row action.
  @MainActor static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.rows.append(Todo.State(id: state.nextID, title: title))
      state.nextID += 1
    case .row(let id, .delegate(.delete)):
      state.rows.removeAll { $0.id == id }
    case .row:
      break
    }
    return .none
  }

  static let reducer = Reduce(core)
    .forEach(\.rows, action: Action.row, child: Todo.reduce)
}

extension Store where State == Todos.State, Action == Todos.Action {
  /// The store a row view gets while its row is in the list; nil for a row that is not.
  func rowStore(id: Int) -> Store<Todo.State, Todo.Action>? {
    scope(state: { $0.rows.first { $0.id == id } }, action: { .row(id: id, $0) })
  }
}

func show(_ rows: [Todo.State]) -> String {
  rows.map { "\($0.title)\($0.isSaved ? " (saved)" : "")" }.joined(separator: ", ")
}

let store = Store(initialState: Todos.State(), Todos.reducer)

await store.send(.add("Buy milk")).finish()
await store.send(.add("Write tests")).finish()
await store.send(.add("Ship it")).finish()
print("rows:", show(store.state.rows))  // rows: Buy milk, Write tests, Ship it

// Each row view talks to its own store and never sees the list. Here each row's listener
// records that its row was notified, as a SwiftUI row view would re-render.
let milk = store.rowStore(id: 1)!
let tests = store.rowStore(id: 2)!
let ship = store.rowStore(id: 3)!
var notified: [String] = []
let subscriptions = [(milk, "milk"), (tests, "tests"), (ship, "ship")].map { row, name in
  row.subscribe { _ in notified.append(name) }
}
notified = []  // subscribe calls each listener once at once

tests.send(.titleChanged("Write more tests"))
print("rename tests, notified:", notified)  // rename tests, notified: ["tests"]

notified = []
store.send(.add("Celebrate"))
print("add a row, notified:", notified)  // add a row, notified: []

notified = []
tests.send(.titleChanged("Write more tests"))
print("same title again, notified:", notified)  // same title again, notified: []

notified = []
let milkSave = milk.send(.saveTapped)
let testsSave = tests.send(.saveTapped)
print("saves in flight: 2, notified:", notified)  // saves in flight: 2, notified: []

// The milk row deletes itself at once: its delegate action reaches the list, which removes the row,
// and `forEach` cancels the row's save in that same send, so the server's answer can never land.
await milk.send(.deleteTapped).finish()
print("after delete:", show(store.state.rows))  // after delete: Write more tests, Ship it, ...
// The deleted row's store keeps its last state, so its listener hears of nothing; a row store made
// now for that id is nil.
print("milk row store keeps:", show([milk.state]))  // milk row store keeps: Buy milk
print("row store for id 1:", store.rowStore(id: 1) == nil ? "nil" : "a store")  // ... nil
print("notified:", notified)  // notified: []

notified = []
await milkSave.finish()
await testsSave.finish()
print("milk save cancelled:", milkSave.isCancelled)  // milk save cancelled: true
print("rows:", show(store.state.rows))  // rows: Write more tests (saved), Ship it, Celebrate
print("tests row store sees:", tests.state.isSaved ? "saved" : "not saved")  // saved
print("notified:", notified)  // notified: ["tests"]
for subscription in subscriptions { subscription.cancel() }
