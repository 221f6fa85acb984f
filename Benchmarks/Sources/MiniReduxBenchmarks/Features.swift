import Observation

#if MINIREDUX_TESTABLE
  @testable import MiniRedux
#else
  import MiniRedux
#endif

// MARK: - Features under test

/// S1, F1, F2, S6: the smallest state there is.
enum Counter {
  struct State { var count = 0 }
  enum Action: Sendable { case increment }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    }
  }
}

/// S2: a state whose copy would cost 800 kB.
enum Inventory {
  struct State {
    var items: [Int]
  }
  enum Action: Sendable { case bumpFirst }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .bumpFirst:
      state.items[0] += 1
      return .none
    }
  }
}

/// S3, S4: one effect that sends one action back.
enum RoundTrip {
  struct State { var done = 0 }
  enum Action: Sendable { case start, done }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in await send(.done) }
    case .done:
      state.done += 1
      return .none
    }
  }
}

/// S5: a search field typed into faster than the search can answer.
enum Search {
  struct State {
    var results = 0
    var lastResult = -1
  }
  enum Action: Sendable {
    case query(Int)
    case result(Int)
  }
  enum Strategy { case cancelInFlight, debounce }

  static func reducer(
    _ strategy: Strategy
  ) -> @MainActor (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .query(let query):
        switch strategy {
        case .cancelInFlight:
          return .run { send in
            try await ContinuousClock().sleep(for: .milliseconds(5))
            await send(.result(query))
          }
          .cancellable(id: "search", cancelInFlight: true)
        case .debounce:
          return .run { send in await send(.result(query)) }
            .debounce(id: "search", for: .milliseconds(5), clock: ContinuousClock())
        }
      case .result(let query):
        state.results += 1
        state.lastResult = query
        return .none
      }
    }
  }
}

/// S8: one long-lived effect (a socket, say) delivering messages; each starts a short effect.
enum Stream {
  struct State { var received = 0 }
  enum Action: Sendable {
    case listen(Int)
    case message(Int)
  }

  static func reducer(_ probe: HeapProbe) -> @MainActor (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .listen(let count):
        return .run { send in
          for message in 1...count { await send(.message(message)) }
        }
      case .message(let message):
        probe.sample(message)
        state.received += 1
        return .run { _ in blackHole(message) }
      }
    }
  }
}

/// S9: a polling chain: each tick's effect sends the next tick.
enum Chain {
  struct State { var links = 0 }
  enum Action: Sendable { case tick(Int) }

  static func reducer(
    _ length: Int, _ probe: HeapProbe
  ) -> @MainActor (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .tick(let link):
        probe.sample(link)
        state.links = link
        guard link < length else { return .none }
        return .run { send in await send(.tick(link + 1)) }
      }
    }
  }
}

/// S17: effects in flight under one id, replaced by a `cancelInFlight` that starts deep inside
/// another effect.
enum Replacement {
  enum Action: Sendable { case start, replace, noop }

  /// `.start` returns `members` groups under "x", nested, around one `.run` that stays in flight
  /// until cancelled; `.replace` returns a `cancelInFlight` under "x" inside `depth` groups under
  /// ids of their own, which cancels those members. Each group merges a `.noop`, which counts.
  static func reducer(members: Int, depth: Int) -> Reducer<Int, Action> {
    { noops, action in
      switch action {
      case .start:
        // NB: No thread, no CPU: the sleep ends only in the cancellation `.replace` brings.
        var effect = Effect<Action>.run { _ in try await Task.sleep(for: .seconds(3600)) }
        for _ in 0..<members { effect = .merge(effect, .send(.noop)).cancellable(id: "x") }
        return effect
      case .replace:
        var effect = Effect<Action>.run { _ in }.cancellable(id: "x", cancelInFlight: true)
        for id in 0..<depth { effect = .merge(effect, .send(.noop)).cancellable(id: id) }
        return effect
      case .noop:
        noops += 1
        return .none
      }
    }
  }
}

/// Reads the live heap at the 20,000th and the 220,000th operation.
@MainActor
final class HeapProbe {
  private var first: Int?
  private var second: Int?

  func sample(_ operation: Int) {
    if operation == 20_000 { first = liveHeapBytes() }
    if operation == 220_000 { second = liveHeapBytes() }
  }

  /// Bytes the live heap grew between the two readings, if both were taken.
  var growth: Int? { first.flatMap { first in second.map { $0 - first } } }
}

// MARK: - Floors

/// F2: what a hand-written observable model costs: state behind an `ObservationRegistrar`, a
/// `_modify` accessor that brackets the mutation with `willSet`/`didSet`, and a key path made
/// once. The reducer is the same opaque closure the store calls.
@MainActor
final class ObservedModel<State, Action: Sendable> {
  var state: State {
    get {
      registrar.access(self, keyPath: stateKeyPath)
      return _state
    }
    _modify {
      registrar.willSet(self, keyPath: stateKeyPath)
      defer { registrar.didSet(self, keyPath: stateKeyPath) }
      yield &_state
    }
  }

  private var _state: State
  private let reducer: @MainActor (inout State, Action) -> Effect<Action>
  private let registrar = ObservationRegistrar()
  // NB: A key path literal inside a generic class is rebuilt by the runtime on every use
  // (about 2.5 µs); the floor would then measure that instead of observation.
  private let stateKeyPath: KeyPath<ObservedModel, State> = \.state

  init(
    initialState: State, _ reducer: @escaping @MainActor (inout State, Action) -> Effect<Action>
  ) {
    self._state = initialState
    self.reducer = reducer
  }

  func send(_ action: Action) {
    _ = reducer(&state, action)
  }
}

extension ObservedModel: Observable {}

/// F3 and the listeners of S6: a counter on the main actor.
@MainActor
final class Tally {
  var value = 0

  func increment() { value &+= 1 }
  func add(_ amount: Int) { value &+= amount }
}

/// S6: an observer that re-tracks the store each time it changes, as a SwiftUI view does.
///
/// NB: `onChange` runs inside the registrar's `willSet`, on the thread that mutates, and is
/// `@Sendable`. Every mutation of a `Store` happens on the main actor, so `assumeIsolated` holds
/// and the observer re-registers synchronously, before the next `send`. SwiftUI instead marks
/// the view dirty and tracks again on the next render; that hop is not part of a `send`.
@MainActor
final class Observer {
  let store: Store<Counter.State, Counter.Action>
  let tally: Tally

  init(store: Store<Counter.State, Counter.Action>, tally: Tally) {
    self.store = store
    self.tally = tally
  }

  func track() {
    withObservationTracking {
      blackHole(store.state.count)
    } onChange: { [self] in
      MainActor.assumeIsolated {
        tally.increment()
        track()
      }
    }
  }
}

// MARK: - In-flight bookkeeping

/// The number of effects the store has in flight, or `nil` in a plain release build.
///
/// NB: The count is the store's internal registry's, which `@testable import` reads only when the
/// library is compiled with `-enable-testing`. Timings and instruction counts come from a plain
/// release build, which leaves the bookkeeping checks out; `.ci/run` runs the suite once more
/// with `-Xswiftc -enable-testing -Xswiftc -DMINIREDUX_TESTABLE` to make them.
@MainActor
func inFlightEffects<State, Action>(_ store: Store<State, Action>) -> Int? {
  #if MINIREDUX_TESTABLE
    (store.core as? Registry)?.inFlight.count ?? 0
  #else
    nil
  #endif
}

/// The number of cancellation ids the store still indexes, or `nil` in a plain release build.
@MainActor
func indexedEffectIDs<State, Action>(_ store: Store<State, Action>) -> Int? {
  #if MINIREDUX_TESTABLE
    (store.core as? Registry)?.byID.count ?? 0
  #else
    nil
  #endif
}

/// `count` for a check's detail, or what to do to read it.
func described(_ count: Int?) -> String {
  count.map(String.init) ?? "not read (a plain release build; see Benchmarks/README.md)"
}

// MARK: - Scoped stores

/// S10: a list whose rows are each scoped to a store of their own, as row views are.
enum RowList {
  /// `Equatable`, so a row store's observers hear only of changes to their row. The title is a
  /// number, so that no string formatting is measured.
  struct Row: Equatable { var title = 0 }
  /// The same row without `Equatable`: its store's observers hear of every change of the list.
  struct OpaqueRow { var title = 0 }
  struct State {
    var rows: [Row]
    var opaqueRows: [OpaqueRow]
  }
  enum Action: Sendable {
    case rename(Int)
    case renameOpaque(Int)
  }
  enum RowAction: Sendable { case rename }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .rename(let index):
      state.rows[index].title += 1
    case .renameOpaque(let index):
      state.opaqueRows[index].title += 1
    }
    return .none
  }
}

/// S10: an observer of one row store, re-tracking in `onChange` as `Observer` does.
@MainActor
final class RowObserver<Row> {
  let store: Store<Row, RowList.RowAction>
  let tally: Scenarios.RowTally
  let row: Int

  init(store: Store<Row, RowList.RowAction>, tally: Scenarios.RowTally, row: Int) {
    self.store = store
    self.tally = tally
    self.row = row
  }

  func track() {
    withObservationTracking {
      blackHole(store.state)
    } onChange: { [self] in
      MainActor.assumeIsolated {
        tally.fired += 1
        tally.lastRow = row
        track()
      }
    }
  }
}

/// S11: S2's large array, inside a child state that a live scope with `Equatable` state holds.
enum Catalog {
  struct Child: Equatable { var items: [Int] }
  struct State { var child: Child }
  enum Action: Sendable { case bumpFirst, bumpLast }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .bumpFirst:
      state.child.items[0] += 1
    case .bumpLast:
      state.child.items[state.child.items.count - 1] += 1
    }
    return .none
  }
}

// MARK: - Embedded rows

/// S12, F12: a list of 10,000 `Identifiable` rows (S12b: 10) in the parent's state, with a counter
/// beside it. S12's reducer embeds the rows with `forEach`, S12d's with `Reduce.forEach`'s default form; F12's
/// is `core`, the parent alone.
enum Checklist {
  struct Row: Identifiable {
    let id: Int
    var title = 0
  }
  struct State {
    var rows: [Row]
    var bumps = 0
  }
  enum Action: Sendable {
    case bump
    case row(Int, RowAction)
  }
  enum RowAction: Sendable { case rename }

  /// The parent alone: `.bump` changes the counter and starts no effect.
  static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .bump:
      state.bumps += 1
    case .row:
      break
    }
    return .none
  }

  static func row(_ state: inout Row, _ action: RowAction) -> Effect<RowAction> {
    switch action {
    case .rename:
      state.title += 1
    }
    return .none
  }

  /// S12d: `core` with the rows embedded by `Reduce.forEach`'s default form, which reads the
  /// action's case at run time instead of calling an extract closure.
  static func embeddedByCase() -> Reducer<State, Action> {
    Reduce(opaqueReducer(core)).forEach(\.rows, action: Action.row, child: opaqueReducer(row))
      .reduce
  }

  /// `core` with the rows embedded; both reducers are opaque, as F12's is.
  static func embedded() -> Reducer<State, Action> {
    forEach(
      opaqueReducer(core), state: \.rows,
      action: { if case .row(let id, let action) = $0 { (id, action) } else { nil } },
      embed: Action.row, child: opaqueReducer(row))
  }
}

/// S15, S16: a list whose rows `Reduce.forEach` embeds, held in an `Array` (S15) or in a
/// dictionary keyed by id and embedded through its values (S16). A row's effect, once started,
/// stays suspended until the store goes.
enum Roster {
  struct Row: Identifiable, Sendable {
    let id: Int
    var title = 0
  }
  struct ArrayState: RosterState { var rows: [Row] }
  struct DictionaryState: RosterState { var rows: [Int: Row] }
  enum Action: Sendable {
    case row(Int, RowAction)
    /// Gives the list all its rows (setup: see `Scenarios.rowActionInList`).
    case fill
  }
  enum RowAction: Sendable { case rename, start }

  /// The list alone: `.fill` sets the rows to `full`.
  static func core<State: RosterState>(full: State.Rows) -> Reducer<State, Action> {
    { state, action in
      if case .fill = action { state.rows = full }
      return .none
    }
  }

  /// A row's reducer: `.start` runs an effect that tells `started` it runs, then sleeps an hour.
  static func row(started: AsyncStream<Void>.Continuation) -> Reducer<Row, RowAction> {
    { state, action in
      switch action {
      case .rename:
        state.title += 1
        return .none
      case .start:
        return .run { _ in
          started.yield()
          // NB: No thread, no CPU: the sleep ends only in the cancellation the store's end brings.
          try await Task.sleep(for: .seconds(3600))
        }
      }
    }
  }

  /// `core` with the rows at `path` embedded by `Reduce.forEach`; both reducers are opaque.
  static func reducer<State: RosterState, Embedded: MutableCollection>(
    _ path: sending WritableKeyPath<State, Embedded>, full: State.Rows,
    started: AsyncStream<Void>.Continuation
  ) -> Reducer<State, Action> where Embedded.Element == Row {
    Reduce(opaqueReducer(core(full: full))).forEach(
      path, action: Action.row, child: opaqueReducer(row(started: started))
    ).reduce
  }
}

/// S15, S16: a list's state, whichever collection holds its rows.
protocol RosterState {
  associatedtype Rows: Sendable
  var rows: Rows { get set }
  init(rows: Rows)
}

// MARK: - Views that read one property each

/// S13: a form of ten fields, each shown by a view of its own that reads only its field.
enum Form {
  struct State: Equatable {
    var f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0
  }
  enum Action: Sendable { case edit(Int) }
  static let fieldCount = 10

  static func field(_ index: Int) -> WritableKeyPath<State, Int> {
    switch index {
    case 0: \.f0
    case 1: \.f1
    case 2: \.f2
    case 3: \.f3
    case 4: \.f4
    case 5: \.f5
    case 6: \.f6
    case 7: \.f7
    case 8: \.f8
    default: \.f9
    }
  }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    if case .edit(let index) = action { state[keyPath: field(index)] += 1 }
    return .none
  }
}

/// S13: an observer of one value, re-tracking in `onChange` as `RowObserver` does.
@MainActor
final class FieldObserver {
  let read: @MainActor () -> Int
  let tally: Scenarios.RowTally
  let field: Int

  init(read: @escaping @MainActor () -> Int, tally: Scenarios.RowTally, field: Int) {
    (self.read, self.tally, self.field) = (read, tally, field)
  }

  func track() {
    withObservationTracking {
      blackHole(read())
    } onChange: { [self] in
      MainActor.assumeIsolated {
        tally.fired += 1
        tally.lastRow = field
        track()
      }
    }
  }
}
