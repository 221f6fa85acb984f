import Observation
import Testing

@testable import MiniRedux

/// A child feature: a counter with a timer effect that has its own cancellation id.
enum Counter {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case increment, startTimer, stopTimer, tick }
  enum CancelID { case timer }

  @MainActor
  static func reduce(_ gate: Gate) -> (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .increment, .tick:
        state.count += 1
        return .none
      case .startTimer:
        return .run { send in
          await gate.wait()
          await send(.tick)
        }
        .cancellable(id: CancelID.timer)
      case .stopTimer:
        return .cancel(id: CancelID.timer)
      }
    }
  }
}

/// A parent embedding two counters and an unrelated field.
enum App {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var title = ""
  }
  enum Action: Sendable, Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
    case rename(String)
  }

  @MainActor
  static func store(_ gate: Gate) -> Store<State, Action> {
    let counter = Counter.reduce(gate)
    return Store(initialState: State()) { state, action in
      switch action {
      case .left(let action):
        return counter(&state.left, action).map(Action.left)
      case .right(let action):
        return counter(&state.right, action).map(Action.right)
      case .rename(let title):
        state.title = title
        return .none
      }
    }
  }
}

@MainActor
@Suite("Composition: embedded reducers")
struct EmbeddingTests {
  @Test("a parent embeds a child reducer by calling it on its state and mapping its effect")
  func embed() async {
    let gate = Gate()
    let store = App.store(gate)
    store.send(.left(.increment))
    let timer = store.send(.right(.startTimer))
    gate.open()
    await timer.finish()
    #expect(store.state.left.count == 1)
    #expect(store.state.right.count == 1)
  }

  @Test("cancellation ids used inside a child work through map")
  func childCancellation() async {
    let gate = Gate()
    let store = App.store(gate)
    let timer = store.send(.left(.startTimer))
    #expect(store.inFlightEffectCount == 1)
    store.send(.left(.stopTimer))
    #expect(store.inFlightEffectCount == 0)
    gate.open()
    await timer.finish()
    #expect(store.state.left.count == 0)
  }
}

@MainActor
@Suite("Composition: scoped stores")
struct ScopedStoreTests {
  @Test("a scoped store reads through its parent and sends through it, with one registry")
  func readsAndSendsThroughParent() async {
    let gate = Gate()
    let store = App.store(gate)
    let left = store.scope(state: \.left, action: App.Action.left)

    left.send(.increment)
    #expect(left.state.count == 1)
    #expect(store.state.left.count == 1)

    store.send(.left(.increment))
    #expect(left.state.count == 2)

    // One effect registry: the child's effect lives in the parent, and the parent can cancel it.
    let timer = left.send(.startTimer)
    #expect(store.inFlightEffectCount == 1)
    #expect(left.inFlightEffectCount == 0)
    store.send(.left(.stopTimer))
    #expect(store.inFlightEffectCount == 0)
    gate.open()
    await timer.finish()
    #expect(left.state.count == 2)
  }

  @Test("a scoped store's state is observable and changes when the parent's child state does")
  func observation() {
    let store = App.store(Gate())
    let left = store.scope(state: \.left, action: App.Action.left)
    let changes = Recorder<String>()

    withObservationTracking {
      _ = left.state
    } onChange: {
      changes.append("left")
    }
    store.send(.left(.increment))
    #expect(changes.values == ["left"])

    // The cost model: a child observer hears of every change of the parent's state.
    withObservationTracking {
      _ = left.state
    } onChange: {
      changes.append("rename")
    }
    store.send(.rename("x"))
    #expect(changes.values == ["left", "rename"])
  }

  @Test("subscribe on a scoped store delivers the child state at once and after each send")
  func subscribe() {
    let store = App.store(Gate())
    let right = store.scope(state: \.right, action: App.Action.right)
    var seen: [Int] = []
    let subscription = right.subscribe { seen.append($0.count) }
    right.send(.increment)
    store.send(.right(.increment))
    subscription.cancel()
    right.send(.increment)
    #expect(seen == [0, 1, 2])
  }

  @Test("a scoped store can be scoped again, and functions work as well as key paths")
  func nestedScope() {
    let store = App.store(Gate())
    let left = store.scope(state: \.left, action: App.Action.left)
    let count = left.scope(state: { $0.count }, action: { (_: Void) in Counter.Action.increment })
    count.send(())
    count.send(())
    #expect(count.state == 2)
    #expect(store.state.left.count == 2)
  }

  @Test("a scoped store holds no copy: the parent still mutates a large array in place")
  func noCopy() {
    struct Parent { var child = [Int](repeating: 0, count: 100_000) }
    let store = Store<Parent, Int>(initialState: Parent()) { state, index in
      state.child[index] += 1
      return .none
    }
    let child = store.scope(state: \.child, action: { $0 })
    let before = store.state.child.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    child.send(0)
    let after = store.state.child.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    #expect(before == after)
    #expect(child.state[0] == 1)
  }
}

/// A list of rows with identity: each row has effects keyed by its id and talks to the list
/// through a delegate action.
enum Todos {
  struct Row: Equatable, Identifiable {
    let id: Int
    var title: String
    var isSaved = false
  }
  enum RowAction: Sendable, Equatable {
    case save, saved, deleteTapped
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case delete }
  }
  struct State: Equatable {
    var rows: [Row] = []
    var nextID = 0
  }
  enum Action: Sendable, Equatable {
    case add(String)
    case row(id: Int, RowAction)
  }
  /// Every effect of a row is registered under its id, so removing the row can cancel them.
  struct RowEffects: Hashable, Sendable { let id: Int }

  @MainActor
  static func row(_ gate: Gate) -> (inout Row, RowAction) -> Effect<RowAction> {
    { row, action in
      switch action {
      case .save:
        return .run { send in
          await gate.wait()
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

  @MainActor
  static func store(_ gate: Gate) -> Store<State, Action> {
    Store(initialState: State(), reducer(gate))
  }

  @MainActor
  static func reducer(_ gate: Gate) -> @MainActor (inout State, Action) -> Effect<Action> {
    let row = row(gate)
    return { state, action in
      switch action {
      case .add(let title):
        state.rows.append(Row(id: state.nextID, title: title))
        state.nextID += 1
        return .none
      case .row(let id, .delegate(.delete)):
        state.rows.removeAll { $0.id == id }
        return .cancel(id: RowEffects(id: id))
      case .row(let id, let action):
        guard let index = state.rows.firstIndex(where: { $0.id == id }) else { return .none }
        return row(&state.rows[index], action)
          .map { Action.row(id: id, $0) }
          .cancellable(id: RowEffects(id: id))
      }
    }
  }
}

@MainActor
@Suite("Composition: a list of rows")
struct ListTests {
  @Test("rows scoped by id; removing a row through its delegate action cancels its effects")
  func rows() async {
    // Given: two rows, each scoped to its own store, each saving.
    let gate = Gate()
    let store = Todos.store(gate)
    store.send(.add("milk"))
    store.send(.add("eggs"))
    let rows = store.state.rows.map { row in
      store.scope(
        state: { $0.rows.first { $0.id == row.id } },
        action: { Todos.Action.row(id: row.id, $0) })
    }
    let milkSave = rows[0].send(.save)
    let eggsSave = rows[1].send(.save)
    #expect(store.inFlightEffectCount == 2)

    // When: the first row asks its parent to delete it.
    rows[0].send(.deleteTapped)

    // Then: it is gone, its save was cancelled, and the other row's save lands.
    #expect(store.state.rows.map(\.title) == ["eggs"])
    #expect(rows[0].state == nil)
    #expect(store.inFlightEffectCount == 1)
    gate.open()
    await milkSave.finish()
    await eggsSave.finish()
    #expect(rows[1].state?.isSaved == true)
    #expect(store.inFlightEffectCount == 0)
  }
}
