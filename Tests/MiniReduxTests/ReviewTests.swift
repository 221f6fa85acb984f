import Testing

@testable import MiniRedux

// Probes of an adversarial review: each test states a rule of the docs (Guarantees.md and the
// articles) or a TCA behaviour a user relies on. Those the library breaks are wrapped in
// `withKnownIssue`, so that the suite stays green and the rule is kept on record.

/// A child that listens until cancelled, renames itself, and counts what it hears.
private enum Listener {
  struct State: Equatable, Identifiable {
    var id = 1
    var heard = 0
  }
  enum Action: Equatable, Sendable { case listen, heard, rename(Int), close }

  static func reduce(_ gate: Gate) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .listen:
        return .run { send in
          await gate.wait()
          await send(.heard)
        }
      case .heard:
        state.heard += 1
        return .none
      case .rename(let id):
        state.id = id
        return .none
      case .close:
        return .dismiss
      }
    }
  }
}

/// A parent with an optional child and a list of children.
private enum Holder {
  struct State: Equatable {
    var child: Listener.State?
    var rows: [Listener.State] = []
  }
  enum Action: Equatable, Sendable {
    case child(Listener.Action)
    case row(Int, Listener.Action)
    case removeChild
  }

  static func reducer(_ gate: Gate) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      if action == .removeChild { state.child = nil }
      return .none
    }
    .ifLet(\.child, action: Action.child, child: Listener.reduce(gate))
    .forEach(\.rows, action: Action.row, child: Listener.reduce(gate))
  }
}

@MainActor
@Suite("Review: a test store released after its effects were cancelled")
struct ReviewTestsReleasedTestStore {
  @Test("a child removed by the last step leaves nothing unaccounted for (TCA's ifLet tests)")
  func childRemovedByLastStep() async throws {
    let gate = Gate()
    defer { gate.open() }
    let issues = try await issuesRecorded {
      let store = TestStore(
        initialState: Holder.State(child: Listener.State()), Holder.reducer(gate))
      try await store.send(.child(.listen))
      try await store.send(.removeChild) { $0.child = nil }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("a task cancelled at the end of a test leaves nothing unaccounted for (TCA's await cancel)")
  func taskCancelledAtTheEnd() async throws {
    let gate = Gate()
    defer { gate.open() }
    let issues = try await issuesRecorded {
      let store = TestStore(
        initialState: Holder.State(child: Listener.State()), Holder.reducer(gate))
      try await store.send(.child(.listen)).cancel()
    }
    #expect(issues.isEmpty, "\(issues)")
  }
}

/// A stack of listeners, with a parent that pops, pushes from an effect, and replaces.
private enum Screens {
  struct State: Equatable {
    var path: StackState<Listener.State> = []
    var sheet: Listener.State?
  }
  enum Action: Equatable, Sendable {
    case path(id: Int, Listener.Action)
    case popExactly(Int), popBottom
    case load, loaded
    case sheet(Listener.Action), replaceSheet(Int)
  }

  static func reducer(_ gate: Gate) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .popExactly(let id): state.path[id: id] = nil
      case .popBottom: state.path.removeFirst()
      case .load: return .run { send in await send(.loaded) }
      case .loaded: state.path.append(Listener.State(id: 9))
      case .replaceSheet(let id): state.sheet = Listener.State(id: id)
      case .path, .sheet: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: Listener.reduce(gate))
    .ifLet(\.sheet, action: Action.sheet) { (state: inout Listener.State, action) in
      guard action == .close else { return Listener.reduce(gate)(&state, action) }
      return .run { send in
        await gate.wait()
        await send.dismiss()
      }
    }
  }
}

@MainActor
@Suite("Review: stacks and dismissal")
struct ReviewTestsStack {
  @Test("path[id:] = nil pops one screen in the middle: the screen above keeps its effect")
  func popMiddleKeepsScreenAbove() async {
    let gate = Gate()
    let screens: StackState<Listener.State> = [.init(id: 1), .init(id: 2), .init(id: 3)]
    let (top, middle) = (screens.ids[2], screens.ids[1])
    let store = Store(initialState: Screens.State(path: screens), Screens.reducer(gate))
    let topListening = store.send(.path(id: top, .listen))
    let middleListening = store.send(.path(id: middle, .listen))
    store.send(.popExactly(middle))
    #expect(store.state.path.ids == [screens.ids[0], top])
    #expect(middleListening.isCancelled)
    gate.open()
    await finished(topListening, middleListening)
    #expect(store.state.path[id: top]?.heard == 1)
  }

  @Test("the bottom screen popped while the one above listens: the answer reaches the right id")
  func popBottomDeliversToRightID() async {
    let gate = Gate()
    let screens: StackState<Listener.State> = [.init(id: 1), .init(id: 2)]
    let store = Store(initialState: Screens.State(path: screens), Screens.reducer(gate))
    let listening = store.send(.path(id: screens.ids[1], .listen))
    store.send(.popBottom)
    gate.open()
    await finished(listening)
    #expect(store.state.path.map(\.heard) == [1])
    #expect(store.state.path.ids == [screens.ids[1]])
  }

  @Test("in a test store, a screen pushed by an action an effect sent gets the test's next id")
  func testStoreIDsInEffectReductions() async throws {
    let gate = Gate()
    let store = TestStore(
      initialState: Screens.State(path: [Listener.State(id: 1)]), Screens.reducer(gate))
    store.timeout = patience
    #expect(store.state.path.ids == [0])
    try await store.send(.load)
    try await store.receive(.loaded) { $0.path.append(Listener.State(id: 9)) }
    #expect(store.state.path.ids == [0, 1])
    try await store.finish()
  }

  @Test("send.dismiss() of a sheet replaced meanwhile by another does not dismiss the new one")
  func lateDismissSparesTheReplacement() async {
    let gate = Gate()
    let (_, reports) = await capturingReports {
      let store = Store(
        initialState: Screens.State(sheet: Listener.State(id: 1)), Screens.reducer(gate))
      let closing = store.send(.sheet(.close))
      store.send(.replaceSheet(2))
      gate.open()
      await finished(closing)
      #expect(store.state.sheet?.id == 2)
      #expect(closing.isCancelled)
    }
    #expect(reports.isEmpty)
  }
}

/// A feature that starts a burst of effects, cancels them, and restarts under a session id.
private enum Burst {
  enum Action: Equatable, Sendable { case burst(Int), cancelAbove(Int), restart, stop, heard }

  static func reducer(_ gate: Gate) -> Reducer<Int, Action> {
    { heard, action in
      switch action {
      case .burst(let count):
        return .merge((0..<count).map { .run { _ in await untilCancelled() }.cancellable(id: $0) })
      case .cancelAbove(let count):
        return .merge((1..<count).map { .cancel(id: $0) })
      case .restart:
        return .merge(
          .cancel(id: 0),
          .run { send in
            await gate.wait()
            await send(.heard)
          }
        )
        .cancellable(id: "session")
      case .stop:
        return .cancel(id: "session")
      case .heard:
        heard += 1
        return .none
      }
    }
  }
}

@MainActor
@Suite("Review: the registry of effects in flight")
struct ReviewTestsRegistry {
  @Test(
    "a merge under an id, whose first part cancels the last effects in flight, stays under it",
    arguments: [4, 17])
  func groupSurvivesEmptiedRegistry(burst: Int) async {
    let gate = Gate()
    let store = Store(initialState: 0, Burst.reducer(gate))
    let bursting = store.send(.burst(burst))
    store.send(.cancelAbove(burst))
    let restarted = store.send(.restart)
    #expect(store.snapshot.effects == 1)
    store.send(.stop)
    gate.open()
    await finished(restarted)
    bursting.cancel()
    await finished(bursting)
    // NB: The arguments lie on either side of `keptCapacity`, past which an emptied registry
    // drops its buffers; the rule is the same on both.
    #expect(store.state == 0)
  }
}

/// Rows that listen under one id, and refresh by replacing their listener.
private enum Refreshing {
  struct Row: Equatable, Identifiable {
    var id: Int
    var heard = 0
  }
  enum RowAction: Equatable, Sendable { case listen, refresh, heard }
  struct State: Equatable { var rows: [Row] }
  enum Action: Equatable, Sendable { case row(Int, RowAction), keepOnly(Int), removeAll }

  static func reducer(_ gate: Gate) -> Reduce<State, Action> {
    let answer = Effect<RowAction>.run { send in
      await gate.wait()
      await send(.heard)
    }
    return Reduce<State, Action> { state, action in
      switch action {
      case .keepOnly(let id): state.rows.removeAll { $0.id != id }
      case .removeAll: state.rows = []
      case .row: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.row) { row, action in
      switch action {
      case .listen:
        return .run { _ in await untilCancelled() }.cancellable(id: "L", cancelInFlight: true)
      case .refresh:
        return .merge(answer.cancellable(id: "L", cancelInFlight: true), answer)
      case .heard:
        row.heard += 1
        return .none
      }
    }
  }
}

extension ReviewTestsRegistry {
  @Test("a row's refresh, after a burst of effects, still ends when the row is removed")
  func rowEffectsEndAfterABurst() async {
    let gate = Gate()
    let rows = (0..<17).map { Refreshing.Row(id: $0) }
    let (_, reports) = await capturingReports {
      let store = Store(initialState: Refreshing.State(rows: rows), Refreshing.reducer(gate))
      for row in rows { store.send(.row(row.id, .listen)) }
      store.send(.keepOnly(0))
      let refreshing = store.send(.row(0, .refresh))
      store.send(.removeAll)
      #expect(store.state.rows.isEmpty)
      #expect(refreshing.isCancelled)
      #expect(store.snapshot.effects == 0)
      gate.open()
      await finished(refreshing)
    }
    #expect(reports.isEmpty, "\(reports)")
  }
}

@MainActor
@Suite("Review: observers hear of sends, and only of sends")
struct ReviewTestsObserver {
  @Test("effects that end, or a concatenation that moves on, without sending, notify no listener")
  func silentEffectsNotifyNoOne() async {
    let store = Store(initialState: 0) { (count: inout Int, composite: Bool) in
      count += 1
      let work = Effect<Bool>.run { _ in await Task.yield() }
      return composite
        ? .concatenate(work, work, work) : .merge(work, work).cancellable(id: "group")
    }
    var calls = 0
    let subscription = store.subscribe { _ in calls += 1 }
    defer { subscription.cancel() }
    #expect(calls == 1)
    await finished(store.send(true))
    await finished(store.send(false))
    #expect(calls == 3)
  }
}

/// A sheet that holds rows, each of which can close itself after telling the sheet.
private enum SheetOfRows {
  struct Row: Equatable, Identifiable {
    var id: Int
  }
  enum RowAction: Equatable, Sendable { case saveThenClose, closeFromRun, delegate }
  struct Sheet: Equatable {
    var rows: [Row]
    var saved = 0
  }
  enum SheetAction: Equatable, Sendable { case row(Int, RowAction) }
  struct State: Equatable { var sheet: Sheet? }
  enum Action: Equatable, Sendable { case sheet(SheetAction) }

  static let sheet = Reduce<Sheet, SheetAction> { sheet, action in
    if case .row(_, .delegate) = action { sheet.saved += 1 }
    return .none
  }
  .forEach(\.rows, action: SheetAction.row) { _, action in
    switch action {
    case .saveThenClose: return .concatenate(.send(.delegate), .dismiss)
    case .closeFromRun:
      return .run { send in
        await send(.delegate)
        await send.dismiss()
      }
    case .delegate: return .none
    }
  }

  static let reducer = Reduce<State, Action> { _, _ in .none }
    .ifLet(\.sheet, action: Action.sheet, child: sheet)
}

@MainActor
@Suite("Review: a child nested in a child dismisses itself, not its parent")
struct ReviewTestsNestedDismiss {
  @Test(".concatenate(.send(.delegate), .dismiss) from a row of a sheet removes the row")
  func rowInSheetDismissesAfterAStep() async {
    let store = Store(
      initialState: SheetOfRows.State(
        sheet: SheetOfRows.Sheet(rows: [.init(id: 1), .init(id: 2)])),
      SheetOfRows.reducer)
    await finished(store.send(.sheet(.row(1, .saveThenClose))))
    #expect(store.state.sheet == SheetOfRows.Sheet(rows: [.init(id: 2)], saved: 1))
  }

  @Test("send.dismiss() from a row of a sheet removes the row")
  func rowInSheetDismissesFromARun() async {
    let store = Store(
      initialState: SheetOfRows.State(
        sheet: SheetOfRows.Sheet(rows: [.init(id: 1), .init(id: 2)])),
      SheetOfRows.reducer)
    await finished(store.send(.sheet(.row(1, .closeFromRun))))
    #expect(store.state.sheet == SheetOfRows.Sheet(rows: [.init(id: 2)], saved: 1))
  }
}

/// A stack whose screens present a sheet that closes itself after saving.
private enum ScreenWithSheet {
  struct Sheet: Equatable {}
  enum SheetAction: Equatable, Sendable { case save, delegate }
  struct Screen: Equatable {
    var sheet: Sheet? = Sheet()
    var saved = 0
  }
  enum ScreenAction: Equatable, Sendable { case sheet(SheetAction) }
  struct State: Equatable { var path: StackState<Screen> }
  enum Action: Equatable, Sendable { case path(id: Int, ScreenAction) }

  static let screen = Reduce<Screen, ScreenAction> { screen, action in
    if action == .sheet(.delegate) { screen.saved += 1 }
    return .none
  }
  .ifLet(\.sheet, action: ScreenAction.sheet) { _, action in
    guard action == .save else { return .none }
    return .run { send in
      await send(.delegate)
      await send.dismiss()
    }
  }

  static let reducer = Reduce<State, Action> { _, _ in .none }
    .forEach(\.path, action: Action.path, child: screen)
}

extension ReviewTestsNestedDismiss {
  @Test("a sheet on a pushed screen that dismisses itself from a .run closes, the screen stays")
  func sheetOnScreenDismissesItself() async {
    let path: StackState<ScreenWithSheet.Screen> = [.init(), .init()]
    let store = Store(initialState: ScreenWithSheet.State(path: path), ScreenWithSheet.reducer)
    await finished(store.send(.path(id: path.ids[1], .sheet(.save))))
    #expect(store.state.path.ids == path.ids)
    #expect(store.state.path.last == ScreenWithSheet.Screen(sheet: nil, saved: 1))
  }
}

/// Rows kept in a dictionary, embedded through its values, each with a sheet of its own.
private enum DictionaryRows {
  struct Row: Equatable, Identifiable {
    var id: Int
    var sheet: Listener.State? = Listener.State()
  }
  enum RowAction: Equatable, Sendable { case sheet(Listener.Action) }
  struct State: Equatable { var rows: [Int: Row] }
  enum Action: Equatable, Sendable { case row(Int, RowAction), add(Int) }

  static func reducer(_ gate: Gate) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      if case .add(let count) = action {
        for id in 100..<(100 + count) { state.rows[id] = Row(id: id) }
      }
      return .none
    }
    .forEach(
      \.rows.values, action: Action.row,
      child: Reduce<Row, RowAction> { _, _ in .none }
        .ifLet(\.sheet, action: RowAction.sheet, child: Listener.reduce(gate)))
  }
}

/// Run by `dictionaryRowsDoNotTrap` in a child process, as it may stop the process.
@MainActor
@Test(.enabled(if: Fixture.name == "review-dictionary"))
func reviewDictionaryRowsFixture() async {
  let gate = Gate()
  let store = Store(
    initialState: DictionaryRows.State(rows: [1: DictionaryRows.Row(id: 1)]),
    DictionaryRows.reducer(gate))
  let listening = store.send(.row(1, .sheet(.listen)))
  store.send(.add(100))
  gate.open()
  await finished(listening)
  #expect(store.state.rows[1]?.sheet?.heard == 1)
  print("review-dictionary: done")
}

@Suite("Review: rows in a dictionary's values")
struct ReviewTestsDictionary {
  @Test(
    "a row of a dictionary's values with a child in flight survives the dictionary growing",
    .enabled(if: ForgottenFinishTests.runsDirectly))
  func dictionaryRowsDoNotTrap() throws {
    let (status, output) = try ForgottenFinishTests.run(
      "review-dictionary",
      ["--testing-library", "swift-testing", "--filter", "reviewDictionaryRowsFixture"])
    #expect(status == 0)
    #expect(output.contains("review-dictionary: done"))
  }
}

@MainActor
@Suite("Review: what a test store reports", .throwingFailures)
struct ReviewTestsTestStore {
  struct Boom: Error {}

  @Test("an error an effect throws, with no catch: handler, fails the test (as in TCA)")
  func uncaughtErrorFailsTheTest() async throws {
    let (_, reports) = try await capturingReports {
      let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in
        .run { _ in throw Boom() }
      }
      store.timeout = patience
      try await store.send(true)
      await #expect(throws: TestStoreFailure.self) { try await store.finish() }
    }
    #expect(reports.isEmpty)  // The failure carries the report; it is not written twice.
  }
}

/// A task-local value, as swift-dependencies binds its overrides.
private enum ReviewAmbient {
  @TaskLocal static var value = 0
}

@MainActor
@Suite("Review: a store's context")
struct ReviewTestsContext {
  enum Action: Equatable, Sendable { case go, noop, saw(Int) }

  @Test(
    "a .run started after a step of a concatenation runs inside the store's context",
    arguments: ["send", "run"])
  func concatenationStepSeesTheContext(firstStep: String) async {
    let store = Store(initialState: [Int]()) { (seen: inout [Int], action: Action) in
      switch action {
      case .go:
        let first: Effect<Action> = firstStep == "send" ? .send(.noop) : .run { _ in }
        return .concatenate(first, .run { send in await send(.saw(ReviewAmbient.value)) })
      case .noop: return .none
      case .saw(let value):
        seen.append(value)
        return .none
      }
    } context: { reduce in
      ReviewAmbient.$value.withValue(42) { reduce() }
    }
    await finished(store.send(.go))
    #expect(store.state == [42])
  }
}

/// Rows kept in a dictionary that close themselves after telling their parent.
private enum ClosingDictionaryRows {
  struct Row: Equatable, Identifiable { var id: Int }
  enum RowAction: Equatable, Sendable { case saveThenClose, closeFromRun, delegate }
  struct State: Equatable {
    var rows: [Int: Row]
    var saved = 0
  }
  enum Action: Equatable, Sendable { case row(Int, RowAction) }

  static let reducer = Reduce<State, Action> { state, action in
    if case .row(_, .delegate) = action { state.saved += 1 }
    return .none
  }
  .forEach(\.rows.values, action: Action.row) { _, action in
    switch action {
    case .saveThenClose: return .concatenate(.send(.delegate), .dismiss)
    case .closeFromRun:
      return .run { send in
        await send(.delegate)
        await send.dismiss()
      }
    case .delegate: return .none
    }
  }
}

extension ReviewTestsDictionary {
  @MainActor
  @Test(
    "a dismissal after a step, in a collection that cannot remove elements, is reported",
    arguments: [ClosingDictionaryRows.RowAction.saveThenClose, .closeFromRun])
  fileprivate func dismissalThatCannotRemoveIsReported(action: ClosingDictionaryRows.RowAction)
    async
  {
    let (_, reports) = await capturingReports {
      let store = Store(
        initialState: ClosingDictionaryRows.State(rows: [1: .init(id: 1)]),
        ClosingDictionaryRows.reducer)
      await finished(store.send(.row(1, action)))
      #expect(store.state == ClosingDictionaryRows.State(rows: [1: .init(id: 1)], saved: 1))
    }
    #expect(reports.contains { $0.contains("cannot remove elements") }, "\(reports)")
  }
}

/// A recursive feature: each row holds rows of its own, as TCA's "Nested" case study does.
private enum Recursive {
  /// How many times an id was read: the work of finding rows.
  @MainActor static var idReads = 0

  struct State: Equatable, Identifiable {
    var key: Int
    var heard = 0
    var rows: [State] = []
    var id: Int {
      MainActor.assumeIsolated { Recursive.idReads += 1 }
      return key
    }
  }
  indirect enum Action: Equatable, Sendable { case row(Int, Action), listen, heard, removeRows }

  static func chain(depth: Int) -> State {
    var state = State(key: depth)
    for level in stride(from: depth - 1, through: 0, by: -1) {
      state = State(key: level, rows: [state])
    }
    return state
  }

  static func action(depth: Int, _ action: Action) -> Action {
    (1...depth).reversed().reduce(action) { .row($1, $0) }
  }

  static func reduce(_ gate: Gate) -> Reducer<State, Action> {
    { state, action in
      Reduce<State, Action> { state, action in
        switch action {
        case .listen:
          return .run { send in
            await gate.wait()
            await send(.heard)
          }
        case .heard: state.heard += 1
        case .removeRows: state.rows = []
        case .row: break
        }
        return .none
      }
      .forEach(\.rows, action: Action.row, child: reduce(gate))
      .reduce(&state, action)
    }
  }
}

@MainActor
@Suite("Review: recursive features")
struct ReviewTestsRecursive {
  /// The ids read, and the time taken, to start a leaf's effect at `depth`, then remove it.
  func cost(depth: Int) async -> (reads: Int, cancelled: Bool) {
    let gate = Gate()
    let store = Store(initialState: Recursive.chain(depth: depth), Recursive.reduce(gate))
    Recursive.idReads = 0
    let listening = store.send(Recursive.action(depth: depth, .listen))
    store.send(.removeRows)
    let reads = Recursive.idReads
    gate.open()
    await finished(listening)
    #expect(store.snapshot.effects == 0)
    return (reads, listening.isCancelled)
  }

  @Test("a leaf's effect at depth d, started then ended with its ancestor, costs linear work in d")
  func recursiveDepthIsLinear() async {
    let (small, large) = (await cost(depth: 40), await cost(depth: 160))
    #expect(small.cancelled && large.cancelled)
    #expect(
      large.reads <= 6 * small.reads, "\(small.reads) ids read at depth 40, \(large.reads) at 160")
  }
}

/// A parent, a child and a grandchild that each run an effect under an id of their own type.
private enum Lineage {
  enum GrandchildID { case effect }
  enum ChildID { case effect }
  struct Grandchild: Equatable {}
  enum GrandchildAction: Equatable, Sendable { case start }
  struct Child: Equatable { var grandchild: Grandchild? = Grandchild() }
  enum ChildAction: Equatable, Sendable { case start, grandchild(GrandchildAction) }
  struct State: Equatable { var child: Child? = Child() }
  enum Action: Equatable, Sendable { case child(ChildAction), stop }

  static let child = Reduce<Child, ChildAction> { _, action in
    guard action == .start else { return .none }
    return .run { _ in await untilCancelled() }.cancellable(id: ChildID.effect)
  }
  .ifLet(\.grandchild, action: ChildAction.grandchild) { _, _ in
    .run { _ in await untilCancelled() }.cancellable(id: GrandchildID.effect)
  }

  static let reducer = Reduce<State, Action> { _, action in
    guard action == .stop else { return .none }
    return .merge(.cancel(id: ChildID.effect), .cancel(id: GrandchildID.effect))
  }
  .ifLet(\.child, action: Action.child, child: child)
}

@MainActor
@Suite("Review: cancellation ids across child features")
struct ReviewTestsNavigationIDs {
  @Test("a child's .cancel(id:) does not reach its parent's effect under the same id")
  func childCannotCancelParent() async {
    enum ID { case effect }
    struct Child: Equatable {}
    enum ChildAction: Equatable { case stop }
    struct State: Equatable { var child: Child? = Child() }
    enum Action: Equatable { case start, child(ChildAction) }
    let reducer = Reduce<State, Action> { _, action in
      guard action == .start else { return .none }
      return .run { _ in await untilCancelled() }.cancellable(id: ID.effect)
    }
    .ifLet(\.child, action: Action.child) { _, _ in .cancel(id: ID.effect) }
    let store = Store(initialState: State(), reducer)
    let parent = store.send(.start)
    store.send(.child(.stop))
    #expect(!parent.isCancelled)
    #expect(store.snapshot.effects == 1)
    parent.cancel()
    await finished(parent)
  }
}

@MainActor
@Suite("Review: StoreTask after its store is released")
struct ReviewTestsReleasedStore {
  @Test("the task of an effect cancelled by releasing its store counts as cancelled")
  func releasedStoreTaskIsCancelled() async {
    var store: Store<Int, Bool>? = Store(initialState: 0) { _, _ in
      .run { _ in await untilCancelled() }
    }
    weak let weakStore = store
    let task = store!.send(true)
    #expect(!task.isCancelled)
    store = nil
    #expect(weakStore == nil)
    await finished(task)
    #expect(task.isCancelled)
  }

  @Test("a concatenation whose store is released starts no further step")
  func releasedStoreStartsNoStep() async {
    let started = Recorder<Int>()
    var store: Store<Int, Bool>? = Store(initialState: 0) { _, _ in
      .concatenate(
        .run { _ in await untilCancelled() },
        .run { _ in started.append(2) })
    }
    let task = store!.send(true)
    store = nil
    await finished(task)
    #expect(started.values.isEmpty)
  }
}

@MainActor
@Suite("Review: naming a child's case")
struct ReviewTestsEmbedClosures {
  enum Inner: Equatable, Sendable { case tap }
  enum Middle: Equatable, Sendable { case edit(Inner), other }
  enum Action: Equatable, Sendable { case destination(Middle) }

  @Test("an embed closure that nests two cases reaches the child, or is reported")
  func nestedEmbedClosure() async {
    let (_, reports) = await capturingReports {
      let reducer = Reduce<Int, Action> { _, _ in .none }
        .scope(\.self, action: { Action.destination(.edit($0)) }) { (count: inout Int, _: Inner) in
          count += 1
          return .none
        }
      let store = Store(initialState: 0, reducer)
      store.send(.destination(.edit(.tap)))
      store.send(.destination(.other))
      #expect(store.state == 0)  // NB: An embedding reads one case: the child did not run.
    }
    // NB: Once, for the action that was the child's; `.destination(.other)` is the parent's.
    #expect(
      reports == [
        "MiniRedux: .destination(.edit(.tap)) reached no child: its embed closure nests two "
          + "cases; embed one case per feature, the inner in the outer's reducer, or pass "
          + "`extract:`."
      ])
  }
}

extension ReviewTestsReleasedTestStore {
  enum Concatenated: Equatable, Sendable { case a, b1, b2, b3, c1, c2, c3, d }

  @Test("TCA's testEffectConcatenation: nested .send concatenations, then .cancel ends the test")
  func tcaEffectConcatenation() async throws {
    let clock = TestClock()
    let issues = try await issuesRecorded {
      let store = TestStore(initialState: 0) { (_: inout Int, action: Concatenated) in
        switch action {
        case .a:
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.b1)
              await send(.c1)
            },
            .run { _ in await untilCancelled() }.cancellable(id: 1))
        case .b1: return .concatenate(.send(.b2), .send(.b3))
        case .c1: return .concatenate(.send(.c2), .send(.c3))
        case .b2, .b3, .c2, .c3: return .none
        case .d: return .cancel(id: 1)
        }
      }
      store.timeout = patience
      try await store.send(.a)
      await clock.advance(by: .seconds(1))
      for action in [Concatenated.b1, .b2, .b3, .c1, .c2, .c3] { try await store.receive(action) }
      try await store.send(.d)
    }
    #expect(issues.isEmpty, "\(issues)")
  }
}

/// TCA's NestedDismissFeature: a feature that presents itself, and dismisses itself from a .run.
private enum NestedDismissFeature {
  struct State: Equatable {
    private var boxed: [State] = []
    var child: State? {
      get { boxed.first }
      set { boxed = newValue.map { [$0] } ?? [] }
    }
  }
  indirect enum Action: Equatable, Sendable {
    case child(Action), dismissButtonTapped, presentButtonTapped
  }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .child: return .none
      case .dismissButtonTapped: return .run { send in await send.dismiss() }
      case .presentButtonTapped:
        state.child = State()
        return .none
      }
    }
    .ifLet(\.child, action: Action.child, child: reduce)
    .reduce(&state, action)
  }
}

extension ReviewTestsNestedDismiss {
  @Test("TCA's testNestedDismiss: a grandchild's send.dismiss() removes only the grandchild")
  func tcaNestedDismiss() async throws {
    let store = TestStore(initialState: NestedDismissFeature.State(), NestedDismissFeature.reduce)
    store.timeout = patience
    try await store.send(.presentButtonTapped) { $0.child = NestedDismissFeature.State() }
    try await store.send(.child(.presentButtonTapped)) {
      $0.child?.child = NestedDismissFeature.State()
    }
    try await store.send(.child(.child(.dismissButtonTapped)))
    try await store.receiveDismiss { $0.child?.child = nil }
    try await store.finish()
  }
}
