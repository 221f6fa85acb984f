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
    await finished(timer)
    #expect(store.state.left.count == 1)
    #expect(store.state.right.count == 1)
  }

  @Test("cancellation ids used inside a child work through map")
  func childCancellation() async {
    let gate = Gate()
    let store = App.store(gate)
    let timer = store.send(.left(.startTimer))
    #expect(store.snapshot.effects == 1)
    store.send(.left(.stopTimer))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(timer)
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
    #expect(store.snapshot.effects == 1)
    #expect(left.snapshot.effects == 0)
    store.send(.left(.stopTimer))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(timer)
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

    // The child's state is Equatable: a change elsewhere in the parent is not the child's.
    withObservationTracking {
      _ = left.state
    } onChange: {
      changes.append("rename")
    }
    store.send(.rename("x"))
    #expect(changes.values == ["left"])
  }

  @Test("an observer of a scoped store may scope the parent again while the scopes are told")
  func scopeWhileNotifying() {
    // Given: an observer of one scoped store that, told of a change, scopes and reads another.
    let tracker = ScopingObserver(App.store(Gate()))
    tracker.track()
    // When: two sends change the observed child, each telling the parent's scopes.
    tracker.store.send(.left(.increment))
    tracker.store.send(.left(.increment))
    // Then: each observer call attached a new scope to the parent as it told them, safely.
    #expect(tracker.made.map(\.state.count) == [0, 0])
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

  @Test("a scoped store with non-Equatable state holds no copy: the parent mutates in place")
  func noCopy() {
    /// Not Equatable, so the scope keeps no copy of it.
    struct Numbers { var values = [Int](repeating: 0, count: 100_000) }
    struct Parent { var child = Numbers() }
    let store = Store<Parent, Int>(initialState: Parent()) { state, index in
      state.child.values[index] += 1
      return .none
    }
    let child = store.scope(state: \.child, action: { $0 })
    let before = store.state.child.values.withUnsafeBufferPointer {
      UInt(bitPattern: $0.baseAddress)
    }
    child.send(0)
    let after = store.state.child.values.withUnsafeBufferPointer {
      UInt(bitPattern: $0.baseAddress)
    }
    #expect(before == after)
    #expect(child.state.values[0] == 1)
  }

  @Test("a live scope with Equatable state keeps a copy, so a parent mutation copies (the cost)")
  func equatableScopeCopies() {
    struct Parent { var child = [Int](repeating: 0, count: 100_000) }
    let store = Store<Parent, Int>(initialState: Parent()) { state, index in
      state.child[index] += 1
      return .none
    }
    let child = store.scope(state: \.child, action: { $0 })
    let before = store.state.child.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    child.send(0)
    let after = store.state.child.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    // The kept copy held the old buffer, so the mutation wrote into a new one.
    #expect(before != after)
    #expect(child.state[0] == 1)
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
        action: { Todos.Action.row(id: row.id, $0) })!
    }
    let milkSave = rows[0].send(.save)
    let eggsSave = rows[1].send(.save)
    #expect(store.snapshot.effects == 2)

    // When: the first row asks its parent to delete it.
    rows[0].send(.deleteTapped)

    // Then: it is gone, its save was cancelled, and the other row's save lands.
    #expect(store.state.rows.map(\.title) == ["eggs"])
    #expect(rows[0].state.title == "milk")
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(milkSave)
    await finished(eggsSave)
    #expect(rows[1].state.isSaved)
    #expect(store.snapshot.effects == 0)
  }
}

/// A list whose rows are scoped by index, as a list view scopes a store for each row view.
enum Rows {
  struct Row: Equatable { var title: String }
  struct State {
    var rows: [Row]
    var selection: Int?
  }
  enum Action: Sendable {
    case rename(Int, String)
    case select(Int)
  }

  @MainActor
  static func store(count: Int) -> Store<State, Action> {
    let rows = (0..<count).map { Row(title: "row \($0)") }
    return Store(initialState: State(rows: rows, selection: nil)) { state, action in
      switch action {
      case .rename(let index, let title):
        state.rows[index].title = title
      case .select(let index):
        state.selection = index
      }
      return .none
    }
  }

  @MainActor
  static func rowStores(_ store: Store<State, Action>) -> [Store<Row, String>] {
    store.state.rows.indices.map { index in
      store.scope(state: { $0.rows[index] }, action: { .rename(index, $0) })
    }
  }

  /// Registers a one-shot observer on every row; the recorder gets the index of each that fires.
  @MainActor
  static func observe(_ rows: [Store<Row, String>]) -> Recorder<Int> {
    let fired = Recorder<Int>()
    for (index, row) in rows.enumerated() {
      withObservationTracking {
        _ = row.state
      } onChange: {
        fired.append(index)
      }
    }
    return fired
  }
}

/// A parent with a middle part that has two fields, for scopes of scopes.
enum Nested {
  struct Middle: Equatable {
    var inner = 0
    var sibling = 0
  }
  /// Not Equatable: a scope to it hears of every change of its parent.
  struct Opaque { var middle = Middle() }
  struct State {
    var middle = Middle()
    var opaque = Opaque()
    var unrelated = 0
  }
  enum Action: Sendable { case inner, sibling, unrelated, opaqueInner, opaqueSibling, innerTwice }

  @MainActor
  static func store() -> Store<State, Action> {
    Store(initialState: State()) { state, action in
      switch action {
      case .inner: state.middle.inner += 1
      case .sibling: state.middle.sibling += 1
      case .unrelated: state.unrelated += 1
      case .opaqueInner: state.opaque.middle.inner += 1
      case .opaqueSibling: state.opaque.middle.sibling += 1
      case .innerTwice: return .concatenate(.send(.inner), .send(.inner))
      }
      return .none
    }
  }
}

/// Counts one-shot observations of a store, re-registering after each.
@MainActor
final class ObservationCounter<State, Action: Sendable> {
  let store: Store<State, Action>
  private(set) var count = 0

  init(_ store: Store<State, Action>) {
    self.store = store
    track()
  }

  private func track() {
    withObservationTracking {
      _ = store.state
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        self?.count += 1
        self?.track()
      }
    }
  }
}

@MainActor
@Suite("Composition: scoped stores with Equatable state notify only when their part changes")
struct ScopeNotificationTests {
  @Test("renaming one of 1,000 rows fires that row's observer and no other")
  func onlyTheChangedRowFires() {
    // Given: 1,000 row stores, each observed once.
    let store = Rows.store(count: 1_000)
    let rows = Rows.rowStores(store)
    let fired = Rows.observe(rows)

    // When: row 500 is renamed.
    store.send(.rename(500, "renamed"))

    // Then: exactly one observer fired, and it saw the new title.
    #expect(fired.values == [500])
    #expect(rows[500].state.title == "renamed")
  }

  @Test("a send that changes no row notifies no row, while the parent's observers hear of it")
  func unrelatedChangeNotifiesNoRow() {
    let store = Rows.store(count: 1_000)
    let rows = Rows.rowStores(store)
    let fired = Rows.observe(rows)
    let parent = ObservationCounter(store)

    store.send(.select(3))

    #expect(fired.values.isEmpty)
    #expect(parent.count == 1)
  }

  @Test("a subscribe listener of a scoped store is called only when its part changed")
  func subscribeOnlyOnChange() {
    let store = App.store(Gate())
    let left = store.scope(state: \.left, action: App.Action.left)
    var seen: [Int] = []
    let subscription = left.subscribe { seen.append($0.count) }
    #expect(seen == [0])

    store.send(.rename("x"))
    store.send(.right(.increment))
    #expect(seen == [0])

    store.send(.left(.increment))
    left.send(.increment)
    #expect(seen == [0, 1, 2])
    subscription.cancel()
  }

  @Test("a scope hears of a send once, after every action the send caused was reduced")
  func oncePerSend() {
    let store = Nested.store()
    let inner = store.scope(state: \.middle.inner, action: { (action: Nested.Action) in action })
    var heard: [Int] = []
    let subscription = inner.subscribe { heard.append($0) }

    // When: one send whose two `.send` effects each change the scope's state.
    store.send(.innerTwice)

    // Then: one notification, with the state after both.
    #expect(heard == [0, 2])
    subscription.cancel()
  }

  @Test("a scope's listener may send and scope again while scopes are notified: queued, not nested")
  func reentrantListener() {
    // Given: a listener of the middle scope that sends and scopes the parent again.
    let store = Nested.store()
    let middle = store.scope(state: \.middle, action: { (action: Nested.Action) in action })
    var heard: [Int] = []
    var later: [Store<Int, Nested.Action>] = []
    let subscription = middle.subscribe { middle in
      heard.append(middle.sibling)
      guard middle.sibling == 1 else { return }
      later.append(store.scope(state: \.unrelated, action: { $0 }))
      store.send(.sibling)
      heard.append(-1)  // the send above was queued: it has not been reduced yet
    }

    // When
    store.send(.sibling)

    // Then: the queued send was reduced after the listener returned, and notified once more.
    #expect(heard == [0, 1, -1, 2])
    #expect(store.state.middle.sibling == 2)
    #expect(later.first?.state == 0)
    #expect(store.snapshot.scopes == 2)
    subscription.cancel()
  }

  @Test("writing a value equal to the current one notifies no one")
  func equalWriteNotifiesNoOne() {
    // Given: a row observed through Observation and through subscribe.
    let store = Rows.store(count: 10)
    let rows = Rows.rowStores(store)
    let fired = Rows.observe(rows)
    var heard: [String] = []
    let subscription = rows[7].subscribe { heard.append($0.title) }

    // When: the row is renamed to its current title, from the parent and from the row.
    store.send(.rename(7, "row 7"))
    rows[7].send("row 7")

    // Then: no observer fired and the listener heard only the first, immediate call.
    #expect(fired.values.isEmpty)
    #expect(heard == ["row 7"])
    subscription.cancel()
  }

  @Test("a scope whose state is not Equatable hears of every change of its parent")
  func nonEquatableNotifiesEveryChange() {
    let store = Nested.store()
    let opaque = store.scope(state: \.opaque, action: { (action: Nested.Action) in action })
    let observed = ObservationCounter(opaque)
    var heard = 0
    let subscription = opaque.subscribe { _ in heard += 1 }

    store.send(.unrelated)
    store.send(.sibling)

    #expect(observed.count == 2)
    #expect(heard == 3)  // at once, then after each send
    subscription.cancel()
  }

  @Test("nested scopes deduplicate at each level")
  func nestedDeduplication() {
    // Given: a scope of the middle part, and a scope of one field of it.
    let store = Nested.store()
    let middle = store.scope(state: \.middle, action: { (action: Nested.Action) in action })
    let inner = middle.scope(state: \.inner, action: { (action: Nested.Action) in action })
    let middleObserved = ObservationCounter(middle)
    let innerObserved = ObservationCounter(inner)
    var middleHeard: [Nested.Middle] = []
    var innerHeard: [Int] = []
    let subscriptions = [
      middle.subscribe { middleHeard.append($0) }, inner.subscribe { innerHeard.append($0) },
    ]

    // When/Then: a change outside the middle part notifies neither.
    store.send(.unrelated)
    #expect(middleObserved.count == 0 && innerObserved.count == 0)

    // A change of the middle part's other field notifies the middle scope only.
    store.send(.sibling)
    #expect(middleObserved.count == 1 && innerObserved.count == 0)
    #expect(middleHeard.map(\.sibling) == [0, 1] && innerHeard == [0])

    // A change of the inner field notifies both.
    store.send(.inner)
    #expect(middleObserved.count == 2 && innerObserved.count == 1)
    #expect(innerHeard == [0, 1])
    for subscription in subscriptions { subscription.cancel() }
  }

  @Test("an Equatable scope of a non-Equatable scope still deduplicates")
  func equatableUnderNonEquatable() {
    let store = Nested.store()
    let opaque = store.scope(state: \.opaque, action: { (action: Nested.Action) in action })
    let inner = opaque.scope(state: \.middle.inner, action: { (action: Nested.Action) in action })
    let innerObserved = ObservationCounter(inner)
    var innerHeard: [Int] = []
    let subscription = inner.subscribe { innerHeard.append($0) }

    store.send(.unrelated)
    store.send(.opaqueSibling)
    #expect(innerObserved.count == 0 && innerHeard == [0])

    store.send(.opaqueInner)
    #expect(innerObserved.count == 1 && innerHeard == [0, 1])
    subscription.cancel()
  }

  @Test("reading a scoped store's state is never stale, even when == calls it unchanged")
  func neverStale() {
    /// Equal when the counts are equal: the note is not part of equality.
    struct Noted: Equatable {
      var count = 0
      var note = ""
      static func == (lhs: Self, rhs: Self) -> Bool { lhs.count == rhs.count }
    }
    let store = Store<Noted, String>(initialState: Noted()) { state, note in
      state.note = note
      return .none
    }
    let child = store.scope(state: { $0 }, action: { $0 })
    var readByParentListener: [String] = []
    let subscription = store.subscribe { _ in readByParentListener.append(child.state.note) }

    child.send("new note")

    // The parent's listener runs before the child compares: it reads the new value anyway.
    #expect(readByParentListener == ["", "new note"])
    // No one was told (equal by ==), yet a read returns the parent's state, not the kept copy.
    #expect(child.state.note == "new note")
    subscription.cancel()
  }

  @Test("a released scoped store stops costing: its parent forgets it and no longer derives it")
  func releasedScopeIsForgotten() {
    let derived = Box<Int>()
    derived.value = 0
    let store = Nested.store()
    var child: Store<Int, Nested.Action>? = store.scope(
      state: { state in
        derived.value! += 1
        return state.unrelated
      },
      action: { $0 })
    #expect(store.snapshot.scopes == 1)
    store.send(.unrelated)
    let derivedWhileAlive = derived.value!
    #expect(child?.state == 1)

    child = nil
    store.send(.unrelated)

    #expect(store.snapshot.scopes == 0)
    #expect(derived.value == derivedWhileAlive + 1)  // only the read above, none on the send
  }

  @Test("scoped stores made and dropped without a send do not pile up in the parent")
  func droppedScopesArePruned() {
    let store = Nested.store()
    for _ in 0..<1_000 {
      _ = store.scope(state: \.middle, action: { (action: Nested.Action) in action })
    }
    #expect(store.snapshot.scopes <= 32)
  }

  @Test("no retain cycle: a released scoped store and its released parent both deallocate")
  func noRetainCycle() {
    weak var weakParent: Store<Nested.State, Nested.Action>?
    weak var weakChild: Store<Nested.Middle, Nested.Action>?
    weak var weakGrandchild: Store<Int, Nested.Action>?
    do {
      let store = Nested.store()
      let middle = store.scope(state: \.middle, action: { (action: Nested.Action) in action })
      let inner = middle.scope(state: \.inner, action: { (action: Nested.Action) in action })
      let subscription = inner.subscribe { _ in }
      store.send(.inner)
      #expect(inner.state == 1)
      subscription.cancel()
      weakParent = store
      weakChild = middle
      weakGrandchild = inner
    }
    #expect(weakParent == nil)
    #expect(weakChild == nil)
    #expect(weakGrandchild == nil)
  }
}

/// Observes a scoped store; each change scopes the parent anew and reads it, then observes again.
@MainActor
final class ScopingObserver {
  let (store, left): (Store<App.State, App.Action>, Store<Counter.State, Counter.Action>)
  var made: [Store<Counter.State, Counter.Action>] = []
  init(_ store: Store<App.State, App.Action>) {
    (self.store, left) = (store, store.scope(state: \.left, action: App.Action.left))
  }

  func track() {
    withObservationTracking {
      _ = left.state
    } onChange: { [weak self] in  // NB: Weakly: the store's registrar keeps this closure.
      MainActor.assumeIsolated {
        guard let self else { return }
        let right = self.store.scope(state: \.right, action: App.Action.right)
        _ = right.state
        self.made.append(right)
        self.track()
      }
    }
  }
}
