import Testing

@testable import MiniRedux

/// An app with a ticker presented as a sheet, a stack of screens each of which can present a
/// ticker of its own, and a counter that is always there. Every effect waits on the gate.
enum Nav {
  struct Ticker: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }
  enum TickerAction: Sendable, Equatable {
    case start, tick, stop, closeTapped, startAndFinish, listen
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case close }
  }
  struct Screen: Equatable, Identifiable {
    let id: Int
    var loads = 0
    var ticker: Ticker?
  }
  enum ScreenAction: Sendable, Equatable {
    case load, loaded, search, stopSearch, showTicker, hideTicker
    case ticker(TickerAction)
  }
  struct State: Equatable {
    var ticker: Ticker?
    var path: [Screen] = []
    var count = 0
    var log: [String] = []
  }
  enum Action: Sendable, Equatable {
    case present(Int), dismiss, scheduleTick, serverDeleted
    case ticker(TickerAction)
    case push(Int), pop(Int), remove(Int)
    case path(id: Int, ScreenAction)
    case counter(Int)
  }
  enum CancelID { case search, tick }

  static func ticker(_ gate: Gate)
    -> @MainActor (inout Ticker, TickerAction) -> Effect<TickerAction>
  {
    { ticker, action in
      switch action {
      case .start, .startAndFinish:
        return .run { send in
          await gate.wait()
          await send(.tick)
        }
        .cancellable(id: CancelID.tick)
      case .listen:
        // A long-running effect that ends only when cancelled, as a timer does.
        return .run { _ in await untilCancelled() }
      case .tick:
        ticker.ticks += 1
        return .none
      case .stop:
        return .cancel(id: CancelID.tick)
      case .closeTapped:
        return .send(.delegate(.close))
      case .delegate:
        return .none
      }
    }
  }

  static func screen(_ gate: Gate)
    -> @MainActor (inout Screen, ScreenAction) -> Effect<ScreenAction>
  {
    let core: @MainActor (inout Screen, ScreenAction) -> Effect<ScreenAction> = { screen, action in
      switch action {
      case .load:
        return .run { send in
          await gate.wait()
          await send(.loaded)
        }
      case .search:
        return .run { send in
          await gate.wait()
          await send(.loaded)
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .stopSearch:
        return .cancel(id: CancelID.search)
      case .loaded:
        screen.loads += 1
        return .none
      case .showTicker:
        screen.ticker = Ticker()
        return .none
      case .hideTicker:
        screen.ticker = nil
        return .none
      case .ticker:
        return .none
      }
    }
    return ifLet(
      core, state: \.ticker, action: { if case .ticker(let a) = $0 { a } else { nil } },
      embed: ScreenAction.ticker, child: ticker(gate))
  }

  static func reducer(_ gate: Gate) -> @MainActor (inout State, Action) -> Effect<Action> {
    let core: @MainActor (inout State, Action) -> Effect<Action> = { state, action in
      switch action {
      case .present(let id):
        state.ticker = Ticker(id: id)
        return .none
      case .dismiss:
        state.ticker = nil
        return .none
      case .scheduleTick:
        return .run { send in
          await gate.wait()
          await send(.ticker(.tick))
        }
      case .ticker(.delegate(.close)):
        state.ticker = nil
        return .run { send in
          await gate.wait()
          await send(.serverDeleted)
        }
      case .ticker(.startAndFinish):
        state.ticker = nil
        return .none
      case .serverDeleted:
        state.log.append("server deleted")
        return .none
      case .push(let id):
        state.path.append(Screen(id: id))
        return .none
      case .pop(let count):
        state.path.removeLast(count)
        return .none
      case .remove(let id):
        state.path.removeAll { $0.id == id }
        return .none
      case .counter:
        state.log.append("count \(state.count)")
        return .none
      case .ticker, .path:
        return .none
      }
    }
    let counter: @MainActor (inout Int, Int) -> Effect<Int> = { count, amount in
      count += amount
      return amount > 1 ? .send(amount - 1) : .none
    }
    let withTicker = ifLet(
      core, state: \.ticker, action: { if case .ticker(let a) = $0 { a } else { nil } },
      embed: Action.ticker, child: ticker(gate))
    let withPath = forEach(
      withTicker, state: \.path,
      action: { if case .path(let id, let a) = $0 { (id, a) } else { nil } },
      embed: Action.path, child: screen(gate))
    return scope(
      withPath, state: \.count, action: { if case .counter(let a) = $0 { a } else { nil } },
      embed: Action.counter, child: counter)
  }

  @MainActor static func store(_ gate: Gate) -> Store<State, Action> {
    Store(initialState: State(), reducer(gate))
  }
}

@MainActor
@Suite("Child features: ifLet, forEach and scope", .throwingFailures)
struct NavigationTests {
  @Test("a dismissed sheet's effect is cancelled in the send that dismisses it")
  func dismissCancels() async {
    // Given: a presented ticker whose effect is waiting.
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.present(1))
    let ticking = store.send(.ticker(.start))
    #expect(store.snapshot.effects == 1)

    // When: the parent dismisses it.
    store.send(.dismiss)

    // Then: the effect is gone at once, and what it sends later is dropped.
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    gate.open()
    await finished(ticking)
    #expect(ticking.isCancelled)
    #expect(store.state.ticker == nil)
  }

  @Test("a TestStore test of a dismissal needs no manual cancel")
  func dismissInTestStore() async throws {
    let gate = Gate()
    defer { gate.open() }
    let store = TestStore(initialState: Nav.State(), Nav.reducer(gate))
    try await store.send(.present(1)) { $0.ticker = Nav.Ticker(id: 1) }
    try await store.send(.ticker(.listen))
    try await store.send(.dismiss) { $0.ticker = nil }
    try await store.finish()
  }

  @Test("a child replaced by one with another id loses its effects; the same id keeps them")
  func replacement() {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.present(1))
    store.send(.ticker(.start))
    store.send(.present(1))
    #expect(store.snapshot.effects == 1)
    store.send(.present(2))
    #expect(store.snapshot.effects == 0)
  }

  @Test("a child presented again starts clean: the old effect's send is dropped")
  func presentAgain() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.present(1))
    let first = store.send(.ticker(.start))
    store.send(.dismiss)
    store.send(.present(1))
    #expect(store.snapshot.effects == 0)
    let second = store.send(.ticker(.start))
    gate.open()
    await finished(first)
    await finished(second)
    #expect(store.state.ticker?.ticks == 1)
  }

  @Test("an effect a child starts in the send that removes it is cancelled too")
  func startAndRemoveInOneSend() {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.present(1))
    let task = store.send(.ticker(.startAndFinish))
    #expect(store.state.ticker == nil)
    #expect(store.snapshot.effects == 0)
    #expect(task.isCancelled)
  }

  @Test("the parent's effect in reply to a child's delegate action outlives the child")
  func parentEffectOutlivesChild() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.present(1))
    store.send(.ticker(.start))
    let close = store.send(.ticker(.closeTapped))
    #expect(store.state.ticker == nil)
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(close)
    #expect(store.state.log == ["server deleted"])
  }

  @Test("removing one element cancels only its effects")
  func removeOne() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    for id in 1...3 { store.send(.push(id)) }
    let loads = (1...3).map { store.send(.path(id: $0, .load)) }
    #expect(store.snapshot.effects == 3)
    store.send(.remove(2))
    #expect(store.snapshot.effects == 2)
    gate.open()
    await finished(loads)
    #expect(store.state.path.map(\.loads) == [1, 1])
    #expect(loads.map(\.isCancelled) == [false, true, false])
  }

  @Test("a pop of two screens cancels both, and the nested sheet of one of them")
  func popTwo() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    for id in 1...3 { store.send(.push(id)) }
    for id in 1...3 { store.send(.path(id: id, .load)) }
    store.send(.path(id: 3, .showTicker))
    store.send(.path(id: 3, .ticker(.start)))
    #expect(store.snapshot.effects == 4)
    store.send(.pop(2))
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(store.send(.path(id: 1, .load)))
    await eventually { store.snapshot.effects == 0 }
    #expect(store.state.path.map(\.loads) == [2])
    #expect(store.snapshot.ids == 0)
  }

  @Test("a nested sheet's effects end when its screen dismisses it")
  func nestedDismiss() {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.push(1))
    store.send(.push(2))
    for id in 1...2 {
      store.send(.path(id: id, .showTicker))
      store.send(.path(id: id, .ticker(.start)))
    }
    #expect(store.snapshot.effects == 2)
    store.send(.path(id: 1, .hideTicker))
    #expect(store.snapshot.effects == 1)
    store.send(.path(id: 2, .ticker(.stop)))
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("a child's ids are its own: the same id in two rows names two effects")
  func idsAreScoped() {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.push(1))
    store.send(.push(2))
    store.send(.path(id: 1, .search))
    store.send(.path(id: 2, .search))
    #expect(store.snapshot.effects == 2)
    store.send(.path(id: 1, .search))
    #expect(store.snapshot.effects == 2)
    store.send(.path(id: 2, .stopSearch))
    #expect(store.snapshot.effects == 1)
    store.send(.pop(2))
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("a parent's .cancel(id:) reaches its children's effects at any depth, never its parent's")
  func cancelReachesDown() {
    // Given: a root, its child and the child's child, each running an effect under the id 1.
    struct Leaf {}
    struct Mid { var leaf: Leaf? = Leaf() }
    struct Root { var mid: Mid? = Mid() }
    enum LeafAction: Sendable { case run(Bool) }
    enum MidAction: Sendable { case run(Bool), leaf(LeafAction) }
    enum RootAction: Sendable { case run(Bool), restart, mid(MidAction) }
    let gate = Gate()
    defer { gate.open() }
    func timer<Action>(_ start: Bool) -> Effect<Action> {
      start ? .run { _ in await gate.wait() }.cancellable(id: 1) : .cancel(id: 1)
    }
    let leaf = Reduce<Leaf, LeafAction> { _, action in
      guard case .run(let start) = action else { return .none }
      return timer(start)
    }
    let mid = Reduce<Mid, MidAction> { _, action in
      guard case .run(let start) = action else { return .none }
      return timer(start)
    }.ifLet(\.leaf, action: MidAction.leaf, child: leaf)
    let root = Reduce<Root, RootAction> { _, action in
      if case .restart = action {
        return .run { _ in await gate.wait() }.cancellable(id: 1, cancelInFlight: true)
      }
      guard case .run(let start) = action else { return .none }
      return timer(start)
    }.ifLet(\.mid, action: RootAction.mid, child: mid)
    let store = Store(initialState: Root(), root)
    for action in [RootAction.run(true), .mid(.run(true)), .mid(.leaf(.run(true)))] {
      store.send(action)
    }
    #expect(store.snapshot.effects == 3)
    // Under 1, its renamings (the middle's, the leaf's) and the two places: a name per ancestor.
    #expect(store.snapshot.ids == 5)

    // When: the middle one cancels, then the leaf, then the root; then: each reaches down only.
    store.send(.mid(.run(false)))
    #expect(store.snapshot.effects == 1)
    store.send(.mid(.run(true)))
    store.send(.mid(.leaf(.run(true))))
    store.send(.mid(.leaf(.run(false))))
    #expect(store.snapshot.effects == 2)
    store.send(.run(false))
    #expect(store.snapshot.effects == 0)

    // And: the root's cancelInFlight reaches down too.
    store.send(.mid(.run(true)))
    store.send(.mid(.leaf(.run(true))))
    store.send(.restart)
    #expect(store.snapshot.effects == 1)
    store.send(.run(false))
    #expect(store.snapshot.ids == 0)
  }

  @Test("an action for a removed element is dropped and reported, never reduced")
  func droppedAndReported() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.push(1))
    store.send(.pop(1))
    let before = store.state
    let (_, reports) = await capturingReports {
      store.send(.path(id: 1, .load))
      store.send(.ticker(.tick))
    }
    #expect(store.state == before)
    #expect(store.snapshot.effects == 0)
    #expect(reports.count == 2)
    #expect(reports.first?.contains("MiniRedux: dropped .path(id: 1, .load)") == true)
    #expect(reports.first?.contains("has no element with id 1") == true)
    #expect(reports.last?.contains("is nil") == true)
  }

  @Test("in a TestStore, a send for a gone child fails its step")
  func droppedSendFails() async throws {
    let gate = Gate()
    defer { gate.open() }
    let store = TestStore(initialState: Nav.State(), Nav.reducer(gate))
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.path(id: 7, .load))
    }
    #expect(failure?.message.contains("dropped") == true)
    try await store.finish()
  }

  @Test("in a TestStore, an effect's send for a gone child fails the next step")
  func droppedReceiveFails() async throws {
    let gate = Gate()
    defer { gate.open() }
    let store = TestStore(initialState: Nav.State(), Nav.reducer(gate))
    store.timeout = patience
    try await store.send(.present(1)) { $0.ticker = Nav.Ticker(id: 1) }
    try await store.send(.scheduleTick)
    try await store.send(.dismiss) { $0.ticker = nil }
    gate.open()
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.ticker(.tick))
    }
    #expect(failure?.message.contains("dropped .ticker(.tick)") == true)
    try await store.finish()
  }

  @Test("scope runs the child first, then the parent, and maps the child's effects")
  func scopeAlwaysThere() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    await finished(store.send(.counter(3)))
    #expect(store.state.count == 6)
    #expect(store.state.log == ["count 3", "count 5", "count 6"])
  }

  @Test("an optional scoped store exists while its child does, then keeps its last state")
  func optionalScope() async {
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    #expect(store.scope(state: \.ticker, action: Nav.Action.ticker) == nil)
    store.send(.present(1))
    let ticker = store.scope(state: \.ticker, action: Nav.Action.ticker)!
    store.send(.push(1))
    let screen = store.scope(
      state: { $0.path.first { $0.id == 1 } }, action: { Nav.Action.path(id: 1, $0) })!
    let tick = ticker.send(.start)
    gate.open()
    await finished(tick)
    #expect(ticker.state.ticks == 1)
    store.send(.dismiss)
    store.send(.pop(1))
    let (_, reports) = await capturingReports {
      ticker.send(.tick)
      screen.send(.load)
    }
    #expect(ticker.state == Nav.Ticker(id: 1, ticks: 1))
    #expect(screen.state.id == 1)
    #expect(reports.count == 2)
    #expect(store.snapshot.effects == 0)
  }

  @Test("a reducer around an embedding that removes the child ends its effects in that send")
  func removedByReducerAround() async throws {
    // Given: the ticker's embedding, wrapped in a reducer that dismisses it on `.dismiss` after
    // the embedding ran, so that the embedding never sees the removal.
    let gate = Gate()
    defer { gate.open() }
    let embedded = ifLet(
      { (_: inout Nav.State, _: Nav.Action) in Effect<Nav.Action>.none }, state: \.ticker,
      action: { if case .ticker(let a) = $0 { a } else { nil } }, embed: Nav.Action.ticker,
      child: Nav.ticker(gate))
    let store = TestStore(initialState: Nav.State(ticker: Nav.Ticker())) { state, action in
      let effect = embedded(&state, action)
      if action == .dismiss { state.ticker = nil }
      return effect
    }
    try await store.send(.ticker(.listen))

    // When: the wrapper removes it.
    try await store.send(.dismiss) { $0.ticker = nil }

    // Then: its timer ended in that send; nothing is left, nothing was dropped.
    try await store.finish()
  }

  @Test("a grandparent that removes a nested child through scope ends its effects in that send")
  func removedByGrandparent() {
    // Given: a screen embedded with `scope`, whose sheet (an `ifLet` in the screen) listens.
    struct App: Equatable { var screen = Nav.Screen(id: 1) }
    enum AppAction: Sendable { case screen(Nav.ScreenAction), closeAll }
    let gate = Gate()
    defer { gate.open() }
    let store = Store(
      initialState: App(),
      scope(
        { app, action in
          if case .closeAll = action { app.screen.ticker = nil }
          return .none
        }, state: \.screen, action: { if case .screen(let a) = $0 { a } else { nil } },
        embed: AppAction.screen, child: Nav.screen(gate)))
    store.send(.screen(.showTicker))
    store.send(.screen(.ticker(.listen)))
    #expect(store.snapshot.effects == 1)

    // When: the app's reducer removes the sheet; the screen's embedding does not run.
    store.send(.closeAll)

    // Then: the sheet's effect ended in that send.
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("a child embedded inside a reducer embedded by hand with map is reported")
  func embeddedByHandIsReported() async {
    // Given: the screen's reducer, with its ticker, embedded with `map` instead of `scope`.
    struct App: Equatable { var screen = Nav.Screen(id: 1) }
    enum AppAction: Sendable { case screen(Nav.ScreenAction) }
    let gate = Gate()
    defer { gate.open() }
    let screen = Nav.screen(gate)
    let store = Store(initialState: App()) { (app: inout App, action: AppAction) in
      guard case .screen(let action) = action else { return .none }
      return screen(&app.screen, action).map(AppAction.screen)
    }
    store.send(.screen(.showTicker))

    // When: the ticker starts an effect.
    let (_, reports) = await capturingReports { store.send(.screen(.ticker(.listen))) }

    // Then: the store says what to do, once.
    #expect(reports.count == 1)
    #expect(reports.first?.contains("Embed the reducer with scope, ifLet or forEach") == true)
    let (_, later) = await capturingReports { store.send(.screen(.load)) }
    #expect(later.isEmpty)
  }

  @Test("two elements with one id: an action for them is reported, and reaches the first")
  func duplicateIDsAreReported() async throws {
    // Given: a stack that holds two screens with id 1.
    let gate = Gate()
    defer { gate.open() }
    let store = Nav.store(gate)
    store.send(.push(1))
    store.send(.push(1))

    // When: an action for id 1 arrives.
    let (_, reports) = await capturingReports { store.send(.path(id: 1, .showTicker)) }

    // Then: it is reported, and reduced by the first screen only.
    #expect(reports.count == 1)
    #expect(reports.first?.contains("more than one element with id 1") == true)
    #expect(store.state.path.map { $0.ticker != nil } == [true, false])
    let (_, none) = await capturingReports { store.send(.push(2)) }
    #expect(none.isEmpty)
  }

  @Test("an enum destination is a child per case: another case ends the previous one's effects")
  func enumDestination() async throws {
    // Given: a destination that is a ticker or an alert, embedded with one ifLet.
    enum Destination: Equatable {
      case ticker(Nav.Ticker)
      case alert(String)
    }
    enum DestinationAction: Equatable, Sendable { case ticker(Nav.TickerAction), alert }
    struct State: Equatable { var destination: Destination? }
    enum Action: Equatable, Sendable {
      case showTicker, showAlert
      case destination(DestinationAction)
    }
    let gate = Gate()
    defer { gate.open() }
    let ticker = Nav.ticker(gate)
    let destination = Reduce<Destination, DestinationAction> { _, _ in .none }
      .scope(Destination.ticker, action: DestinationAction.ticker, child: ticker).reduce
    let store = TestStore(
      initialState: State(),
      ifLet(
        { state, action in
          if action == .showTicker { state.destination = .ticker(Nav.Ticker()) }
          if action == .showAlert { state.destination = .alert("Saved") }
          return .none
        }, state: \.destination,
        action: { if case .destination(let a) = $0 { a } else { nil } }, embed: Action.destination,
        child: destination))
    try await store.send(.showTicker) { $0.destination = .ticker(Nav.Ticker()) }
    try await store.send(.destination(.ticker(.listen)))

    // When: the same case is shown again, then another case.
    try await store.send(.showTicker)
    try await store.send(.showAlert) { $0.destination = .alert("Saved") }

    // Then: the ticker's effect ended in that send, with no Identifiable anywhere.
    try await store.finish()

    // And: an action for the ticker, no longer shown, is dropped and reported.
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.destination(.ticker(.listen)))
    }
    #expect(failure?.message.contains("dropped .destination(.ticker(.listen))") == true)
    #expect(failure?.message.contains("the state shows .alert, not that case") == true)
    try await store.send(.destination(.alert))
    try await store.finish()
  }

  @Test("noticing gone children costs lookups only for children with effects in flight")
  func costIsPerChildInFlight() {
    // Given: 10,000 rows whose ids count their comparisons.
    CountedID.comparisons = 0
    struct Row: Identifiable, Equatable { let id: CountedID }
    enum Action: Sendable { case bump, row(CountedID, Int), remove(Int) }
    let gate = Gate()
    defer { gate.open() }
    let core: @MainActor (inout [Row], Action) -> Effect<Action> = { rows, action in
      if case .remove(let index) = action { rows.remove(at: index) }
      return .none
    }
    let store = Store(
      initialState: (0..<10_000).map { Row(id: CountedID(value: $0)) },
      forEach(
        core, state: \.self, action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } },
        embed: Action.row,
        child: { _, _ in .run { _ in await gate.wait() } }))

    // With no row's effects in flight, a send compares no id.
    CountedID.comparisons = 0
    store.send(.bump)
    #expect(CountedID.comparisons == 0)

    // With one row's effects in flight, a send looks over the rows once: a few lookups a row.
    store.send(.row(CountedID(value: 9_999), 0))
    CountedID.comparisons = 0
    store.send(.bump)
    #expect(CountedID.comparisons > 0 && CountedID.comparisons < 30_000)
    CountedID.comparisons = 0
    store.send(.remove(9_999))
    #expect(store.snapshot.effects == 0)
    CountedID.comparisons = 0
    store.send(.bump)
    #expect(CountedID.comparisons == 0)
  }

  @Test("with every row's effects in flight, a send costs rows plus children, not their product")
  func costWithEveryRowInFlight() {
    struct Row: Identifiable, Equatable { let id: CountedID }
    enum Action: Sendable { case bump, row(CountedID, Int) }
    let gate = Gate()
    defer { gate.open() }
    let store = Store(
      initialState: (0..<300).map { Row(id: CountedID(value: $0)) },
      forEach(
        { _, _ in .none }, state: \.self,
        action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } }, embed: Action.row,
        child: { _, _ in .run { _ in await gate.wait() } }))
    for row in 0..<300 { store.send(.row(CountedID(value: row), 0)) }
    #expect(store.snapshot.effects == 300)

    // A search for each of 300 rows would compare about 45,000 ids.
    CountedID.comparisons = 0
    store.send(.bump)
    #expect(CountedID.comparisons < 6_000)
    #expect(store.snapshot.effects == 300)
  }
}

@MainActor
@Suite("Child features: the cost of children nested in rows")
struct NestedChildCostTests {
  @Test("with every row's own child in flight, a send costs rows, not rows times rows")
  func nestedChildrenInEveryRow() {
    // Given: 300 rows, each presenting a sheet whose effect waits.
    struct Row: Identifiable, Equatable {
      let id: CountedID
      var sheet: Bool?
    }
    enum RowAction: Sendable { case show, sheet(Bool) }
    enum Action: Sendable { case bump, row(CountedID, RowAction) }
    let gate = Gate()
    defer { gate.open() }
    let row: Reducer<Row, RowAction> = ifLet(
      { row, action in
        if case .show = action { row.sheet = true }
        return .none
      }, state: \.sheet, action: { if case .sheet(let a) = $0 { a } else { nil } },
      embed: RowAction.sheet, child: { _, _ in .run { _ in await gate.wait() } })
    let store = Store(
      initialState: (0..<300).map { Row(id: CountedID(value: $0)) },
      forEach(
        { _, _ in .none }, state: \.self,
        action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } }, embed: Action.row,
        child: row))
    for index in 0..<300 {
      store.send(.row(CountedID(value: index), .show))
      store.send(.row(CountedID(value: index), .sheet(true)))
    }
    #expect(store.snapshot.effects == 300)

    // When: a send that touches no row.
    CountedID.comparisons = 0
    store.send(.bump)

    // Then: finding each sheet's row costs a few comparisons, not a search of 300 rows (45,000):
    // the look at the 600 places compares each sheet's embedding, which names its row, with the
    // last one and with the looks kept, about 10 per sheet in a hash order that varies by run.
    #expect(CountedID.comparisons < 12_000)
    #expect(store.snapshot.effects == 300)
  }
}

/// An id that counts how often it is compared.
struct CountedID: Hashable, Sendable {
  nonisolated(unsafe) static var comparisons = 0
  let value: Int
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons += 1
    return lhs.value == rhs.value
  }
  func hash(into hasher: inout Hasher) {
    CountedID.comparisons += 1  // A lookup in a set costs a hash where a search compares.
    hasher.combine(value)
  }
}

/// Two editors of the same type, side by side, each with a sheet of its own.
enum SplitView {
  struct Editor: Equatable {
    var sheet: Bool?
  }
  enum EditorAction: Sendable { case show, hide, sheet(Bool) }
  struct State: Equatable {
    var left = Editor()
    var right = Editor()
  }
  enum Action: Sendable { case left(EditorAction), right(EditorAction) }

  static func reducer(_ gate: Gate) -> Reducer<State, Action> {
    let sheet: Reducer<Bool, Bool> = { _, _ in .run { _ in await gate.wait() } }
    let editor: Reducer<Editor, EditorAction> = ifLet(
      { editor, action in
        if case .show = action { editor.sheet = true }
        if case .hide = action { editor.sheet = nil }
        return .none
      },
      state: \.sheet, action: { if case .sheet(let a) = $0 { a } else { nil } },
      embed: EditorAction.sheet, child: sheet)
    let parent: Reducer<State, Action> = { _, _ in .none }
    let left = scope(
      parent, state: \.left,
      action: { if case .left(let a) = $0 { a } else { nil } }, embed: Action.left, child: editor)
    return scope(
      left, state: \.right, action: { if case .right(let a) = $0 { a } else { nil } },
      embed: Action.right, child: editor)
  }
}

@MainActor
@Suite("Child features inside children of the same type")
struct SplitViewTests {
  @Test("two scoped children of one type keep their own children apart")
  func siblingsKeepTheirChildrenApart() {
    let gate = Gate()
    defer { gate.open() }
    let store = Store(initialState: SplitView.State(), SplitView.reducer(gate))
    store.send(.left(.show))
    store.send(.right(.show))
    store.send(.left(.sheet(true)))
    store.send(.right(.sheet(true)))
    #expect(store.snapshot.effects == 2)
    store.send(.left(.hide))
    #expect(store.snapshot.effects == 1)
    store.send(.right(.hide))
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }
}

/// A child that changes who it is from its own reducer, as TCA's `resetIdentity` does: each load
/// waits (at a gate, or on a clock), then tells what it loaded for the id it started under.
enum Renaming {
  struct State: Equatable, Identifiable {
    var id = 0
    var loaded: [String] = []
  }
  enum Action: Equatable, Sendable {
    case load, rename(Int), renameAndLoad(Int)
    case loaded(String)
  }

  static func reducer(wait: @escaping @Sendable () async throws -> Void) -> Reducer<State, Action> {
    { state, action in
      let load = { (id: Int) in
        Effect<Action>.run { send in
          try await wait()
          await send(.loaded("for \(id)"))
        }
      }
      switch action {
      case .load:
        return load(state.id)
      case .rename(let id):
        state.id = id
        return .none
      case .renameAndLoad(let id):
        state.id = id
        return load(id)
      case .loaded(let what):
        state.loaded.append(what)
        return .none
      }
    }
  }

  /// A sheet of `Renaming`, embedded with `ifLet`.
  struct Sheet: Equatable { var child: State? = State() }
  enum SheetAction: Equatable, Sendable { case child(Action) }

  @MainActor static func sheet(_ gate: Gate) -> Store<Sheet, SheetAction> {
    Store(
      initialState: Sheet(),
      Reduce<Sheet, SheetAction> { _, _ in .none }
        .ifLet(\.child, action: SheetAction.child, child: reducer { await gate.wait() }))
  }
}

@MainActor
@Suite("Child features: a child that changes its own id or case is another child")
struct IdentityChangeTests {
  @Test("an ifLet child that changes its own id ends its earlier effects in that send, as in TCA")
  func ownIDChangeEndsEarlierEffects() async {
    // Given: a load started under id 0.
    let gate = Gate()
    defer { gate.open() }
    let store = Renaming.sheet(gate)
    let load = store.send(.child(.load))
    #expect(store.snapshot.effects == 1)

    // When: the child gives itself id 1, in its own reducer.
    store.send(.child(.rename(1)))

    // Then: the load ended in that send; what it sends once the gate opens is dropped.
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    gate.open()
    await finished(load)
    #expect(load.isCancelled)
    #expect(store.state.child == Renaming.State(id: 1))
  }

  @Test("what a child returns with its new id belongs to that id: it runs, and ends when it goes")
  func effectsReturnedWithTheChangeBelongToTheNewID() async {
    // Given: a load started under id 0.
    let gate = Gate()
    defer { gate.open() }
    let store = Renaming.sheet(gate)
    let underZero = store.send(.child(.load))

    // When: the child gives itself id 1 and loads in the same reduction, then id 2 and loads.
    let underOne = store.send(.child(.renameAndLoad(1)))
    #expect(store.snapshot.effects == 1)
    let underTwo = store.send(.child(.renameAndLoad(2)))
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(underZero, underOne, underTwo)

    // Then: each change ended the loads of the id before it, and only the last load delivered.
    #expect(underZero.isCancelled)
    #expect(underOne.isCancelled)
    #expect(!underTwo.isCancelled)
    #expect(store.state.child == Renaming.State(id: 2, loaded: ["for 2"]))
    #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0)
  }

  @Test("a destination whose case's value changes its own id loses its earlier effects, as in TCA")
  func destinationEnumIdentityChange() async throws {
    // TCA's `testPresentation_DestinationEnum_IdentityChange`, ported: an `ifLet` destination,
    // an enum whose cases are added with `scope`, each holding an `Identifiable` child.
    enum Destination: Equatable {
      case child1(Renaming.State)
      case child2(Renaming.State)
    }
    enum DestinationAction: Equatable, Sendable {
      case child1(Renaming.Action)
      case child2(Renaming.Action)
    }
    struct State: Equatable { var destination: Destination? }
    enum Action: Equatable, Sendable {
      case presentChild1, presentChild2
      case destination(DestinationAction)
    }
    let clock = TestClock()
    let child = Renaming.reducer { try await clock.sleep(for: .seconds(1)) }
    let reducer = Reduce<State, Action> { state, action in
      switch action {
      case .presentChild1: state.destination = .child1(Renaming.State())
      case .presentChild2: state.destination = .child2(Renaming.State())
      case .destination: break
      }
      return .none
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.child1, action: DestinationAction.child1, child: child)
        .scope(Destination.child2, action: DestinationAction.child2, child: child))
    let store = TestStore(initialState: State(), reducer)
    store.timeout = patience

    // Given: the first child starts a load, then gives itself another id before it answers.
    try await store.send(.presentChild1) { $0.destination = .child1(Renaming.State()) }
    try await store.send(.destination(.child1(.load)))
    try await store.send(.destination(.child1(.rename(1)))) {
      $0.destination = .child1(Renaming.State(id: 1))
    }

    // When: the load's second passes. Then: nothing arrives (the next step fails if it did).
    await clock.advance(by: .seconds(1))

    // And: a load under the new id answers.
    try await store.send(.destination(.child1(.load)))
    await clock.advance(by: .seconds(1))
    try await store.receive(.destination(.child1(.loaded("for 1")))) {
      $0.destination = .child1(Renaming.State(id: 1, loaded: ["for 1"]))
    }

    // And: the same for the other case.
    try await store.send(.presentChild2) { $0.destination = .child2(Renaming.State()) }
    try await store.send(.destination(.child2(.load)))
    try await store.send(.destination(.child2(.rename(2)))) {
      $0.destination = .child2(Renaming.State(id: 2))
    }
    await clock.advance(by: .seconds(1))
    try await store.finish()
  }

  @Test("an ifLet child that is an enum and changes its own case ends its earlier effects")
  func ownCaseChangeEndsEarlierEffects() async {
    // Given: a composer that loads while editing, and sends, loading again, in another case.
    enum Composer: Equatable { case editing, sending }
    enum ComposerAction: Equatable, Sendable { case load, send, loaded }
    struct State: Equatable {
      var composer: Composer? = .editing
      var loaded = 0
    }
    enum Action: Equatable, Sendable { case composer(ComposerAction) }
    let gate = Gate()
    defer { gate.open() }
    let load = Effect<ComposerAction>.run { send in
      await gate.wait()
      await send(.loaded)
    }
    let store = Store(
      initialState: State(),
      Reduce<State, Action> { state, action in
        if action == .composer(.loaded) { state.loaded += 1 }
        return .none
      }
      .ifLet(\.composer, action: Action.composer) { (composer: inout Composer, action) in
        if action == .send { composer = .sending }
        return action == .loaded ? .none : load
      })
    let editing = store.send(.composer(.load))

    // When: the child moves itself to another case, loading again.
    let sending = store.send(.composer(.send))

    // Then: the load started while editing ended in that send; the new one runs and delivers.
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(editing, sending)
    #expect(editing.isCancelled)
    #expect(!sending.isCancelled)
    #expect(store.state == State(composer: .sending, loaded: 1))
  }

  @Test("a forEach row that changes its own id ends its earlier effects; new ones are the new id's")
  func rowIDChange() async {
    // Given: a row that started a load under id 0.
    struct State: Equatable { var rows = [Renaming.State()] }
    enum Action: Equatable, Sendable { case row(Int, Renaming.Action) }
    let gate = Gate()
    defer { gate.open() }
    let store = Store(
      initialState: State(),
      Reduce<State, Action> { _, _ in .none }
        .forEach(\.rows, action: Action.row, child: Renaming.reducer { await gate.wait() }))
    let underZero = store.send(.row(0, .load))

    // When: the row gives itself id 1 and loads in the same reduction.
    // NB: Reports go to the reporter of the task that started the effect.
    let (underOne, reports) = await capturingReports {
      let underOne = store.send(.row(0, .renameAndLoad(1)))
      #expect(store.snapshot.effects == 1)
      gate.open()
      await finished(underZero, underOne)
      return underOne
    }

    // Then: the first load ended in that send; the second ran under id 1.
    #expect(underZero.isCancelled)
    #expect(!underOne.isCancelled)

    // And: its action names the row by its new id, and reaches it.
    #expect(store.state.rows == [Renaming.State(id: 1, loaded: ["for 1"])])
    #expect(reports.isEmpty, "\(reports)")
  }

  @Test("through scope on an enum case the child is the case: a new id in its value keeps effects")
  func enumCaseScopeIgnoresIDs() async {
    // Given: a state that is an enum, whose case holds an `Identifiable` child added with `scope`.
    enum Screen: Equatable {
      case item(Renaming.State)
      case empty
    }
    enum ScreenAction: Equatable, Sendable {
      case item(Renaming.Action)
      case replace(id: Int)
    }
    let gate = Gate()
    defer { gate.open() }
    let store = Store(
      initialState: Screen.item(Renaming.State()),
      Reduce<Screen, ScreenAction> { screen, action in
        if case .replace(let id) = action { screen = .item(Renaming.State(id: id)) }
        return .none
      }
      .scope(Screen.item, action: ScreenAction.item, child: Renaming.reducer { await gate.wait() }))
    let load = store.send(.item(.load))

    // When: the child gives itself another id; then the parent sets the case to a value with
    // another id.
    store.send(.item(.rename(1)))
    store.send(.replace(id: 2))

    // Then: the case is still shown, so the load still runs and delivers.
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(load)
    #expect(!load.isCancelled)
    #expect(store.state == .item(Renaming.State(id: 2, loaded: ["for 0"])))
  }
}
