// Todos: a list of rows, each scoped to its own store; only the row that changed is notified.
//
// Run it:     Playground/run Todos
// In an app:  give each row view `store.scope(state:action:)` for its id (as `rowStore(id:)`
//             does below); the row view sends `.saveTapped` or `.deleteTapped` and never sees
//             the list. The list's reducer is the one place that adds and removes rows.
//
// Composition needs nothing new: the list's reducer calls the row's reducer on one row and maps
// its effect with `Effect.map`. Every effect of a row is made `.cancellable` under an id that
// includes the row's id, so deleting a row cancels its save in flight. A row's state is
// `Equatable`, so a row's store notifies its observers (a SwiftUI row view, a `subscribe`
// listener) only when its own row changed, not on every change of the list.

import MiniRedux

/// One row: a feature of its own, which knows nothing about the list.
struct Todo {
  struct State: Equatable {
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
  /// Cancels every effect of one row.
  struct RowEffects: Hashable, Sendable { let id: Int }

  @MainActor static func store() -> Store<State, Action> {
    Store(initialState: State()) { state, action in
      switch action {
      case .add(let title):
        state.rows.append(Todo.State(id: state.nextID, title: title))
        state.nextID += 1
        return .none
      case .row(let id, .delegate(.delete)):
        state.rows.removeAll { $0.id == id }
        return .cancel(id: RowEffects(id: id))
      case .row(let id, let action):
        guard let index = state.rows.firstIndex(where: { $0.id == id }) else { return .none }
        return Todo.reduce(&state.rows[index], action)
          .map { Action.row(id: id, $0) }
          .cancellable(id: RowEffects(id: id))
      }
    }
  }
}

extension Store where State == Todos.State, Action == Todos.Action {
  /// The store a row view gets: its row's state (nil once deleted), its row's actions.
  func rowStore(id: Int) -> Store<Todo.State?, Todo.Action> {
    scope(state: { $0.rows.first { $0.id == id } }, action: { .row(id: id, $0) })
  }
}

func show(_ rows: [Todo.State]) -> String {
  rows.map { "\($0.title)\($0.isSaved ? " (saved)" : "")" }.joined(separator: ", ")
}

let store = Todos.store()

await store.send(.add("Buy milk")).finish()
await store.send(.add("Write tests")).finish()
await store.send(.add("Ship it")).finish()
print("rows:", show(store.state.rows))  // rows: Buy milk, Write tests, Ship it

// Each row view talks to its own store and never sees the list. Here each row's listener
// records that its row was notified, as a SwiftUI row view would re-render.
let milk = store.rowStore(id: 1)
let tests = store.rowStore(id: 2)
let ship = store.rowStore(id: 3)
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

// The milk row deletes itself at once: its delegate action reaches the list, which removes the row
// and cancels the row's save, so the server's answer for it can never land.
await milk.send(.deleteTapped).finish()
print("after delete:", show(store.state.rows))  // after delete: Write more tests, Ship it, ...
print("milk row store sees:", milk.state.map(\.title) ?? "nil (deleted)")  // ... nil (deleted)
print("notified:", notified)  // notified: ["milk"]

notified = []
await milkSave.finish()
await testsSave.finish()
print("milk save cancelled:", milkSave.isCancelled)  // milk save cancelled: true
print("rows:", show(store.state.rows))  // rows: Write more tests (saved), Ship it, Celebrate
print("tests row store sees:", tests.state?.isSaved == true ? "saved" : "not saved")  // saved
print("notified:", notified)  // notified: ["tests"]
for subscription in subscriptions { subscription.cancel() }
