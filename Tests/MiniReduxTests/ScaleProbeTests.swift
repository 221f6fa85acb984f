import Foundation
import Observation
import Testing

@testable import MiniRedux

@MainActor private func runtimeOf<S, A>(_ store: Store<S, A>) -> Registry {
  (store.core as AnyObject) as! Registry
}

/// Counts the objects alive of this kind, to show what a store keeps.
private final class Alive: Sendable {
  let count = Locked(0)
  final class Token: Sendable {
    let owner: Alive
    init(_ owner: Alive) {
      self.owner = owner
      owner.count.withLock { $0 += 1 }
    }
    deinit { owner.count.withLock { $0 -= 1 } }
  }
  func token() -> Token { Token(self) }
  var current: Int { count.withLock { $0 } }
}

// NB: Not under a sanitizer, which makes these single-threaded probes several times slower: the
// suite's own deep-effect tests check the release build's stack under the address sanitizer.
private let underSanitizer = { if case .none = Sanitizer.current { false } else { true } }()

@MainActor
@Suite(
  "Scale probes: depth, width, endurance and adversarial input",
  .disabled(if: underSanitizer, "single-threaded probes, slow under a sanitizer"))
struct ScaleProbeTests {
  enum Action: Sendable, Equatable { case start, stop, got(Int), tick }

  // MARK: - Deep and wide effects

  /// A `.run` sending `.got(1)`, mapped `depth` times.
  static func mappedRun(_ depth: Int) -> Effect<Action> {
    var effect = Effect<Action>.run { send in await send(.got(1)) }
    for _ in 0..<depth { effect = effect.map { $0 } }
    return effect
  }

  /// Sends the action of a `.run` mapped `depth` times.
  static func sendThroughMaps(_ depth: Int) async -> Int {
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start: return mappedRun(depth)
      case .got(let n):
        count += n
        return .none
      default: return .none
      }
    }
    await finished(store.send(.start))
    return store.state
  }

  @Test("a .run mapped 10,000 times delivers its action")
  func deepMapOfRun() async {
    #expect(await Self.sendThroughMaps(10_000) == 1)
  }

  @Test("a concatenation of 20,000 steps, each a merge of two sends, reduces all 40,000")
  func concatenationOfMerges() async {
    let steps = 20_000
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start:
        return .concatenate((0..<steps).map { _ in .merge(.send(.got(1)), .send(.got(1))) })
      case .got(let n):
        count += n
        return .none
      default: return .none
      }
    }
    await finished(store.send(.start))
    #expect(store.state == 2 * steps)
  }

  /// `.merge(e, .send).cancellable(id: i)` inside `.concatenate(_, .send)`, `levels` times, around
  /// a `.run` that waits at `gate`: two containers per level.
  fileprivate static func alternating(_ levels: Int, _ gate: Gate, _ alive: Alive) -> Effect<Action>
  {
    let token = alive.token()
    var effect = Effect<Action>.run { _ in
      _ = token
      await gate.wait()
    }
    for level in 0..<levels {
      effect = .merge(effect, .send(.tick)).cancellable(id: level)
      effect = .concatenate(effect, .send(.got(1)))
    }
    return effect
  }

  @Test("50,000 alternating levels of cancellable, merge, concatenate: start, end, tables empty")
  func alternatingNestingEnds() async {
    let (gate, alive, levels) = (Gate(), Alive(), 50_000)
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start: return Self.alternating(levels, gate, alive)
      case .got(let n):
        count += n
        return .none
      default: return .none
      }
    }
    let task = store.send(.start)
    #expect(runtimeOf(store).byID.count == levels)
    gate.open()
    await finished(task)
    #expect(store.state == levels)
    #expect(runtimeOf(store).inFlight.isEmpty && runtimeOf(store).byID.isEmpty)
    #expect(alive.current == 0)
  }

  @Test("50,000 alternating levels, cancelled by the outermost id mid-flight: all end")
  func alternatingNestingCancelled() async {
    let (gate, alive, levels) = (Gate(), Alive(), 50_000)
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start: return Self.alternating(levels, gate, alive)
      case .stop: return .cancel(id: levels - 1)
      case .got(let n):
        count += n
        return .none
      default: return .none
      }
    }
    let task = store.send(.start)
    store.send(.stop)
    gate.open()
    await finished(task)
    #expect(store.state == 1)  // the outermost concatenation's last step
    #expect(runtimeOf(store).inFlight.isEmpty && runtimeOf(store).byID.isEmpty)
    #expect(alive.current == 0)
  }

  @Test("50,000 alternating levels, cancelled by the innermost id mid-flight: the rest goes on")
  func alternatingNestingInnerCancelled() async {
    let levels = ProcessInfo.processInfo.environment["PROBE_LEVELS"].flatMap(Int.init) ?? 50_000
    let (gate, alive) = (Gate(), Alive())
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start: return Self.alternating(levels, gate, alive)
      case .stop: return .cancel(id: 0)
      case .got(let n):
        count += n
        return .none
      default: return .none
      }
    }
    let task = store.send(.start)
    store.send(.stop)
    gate.open()  // NB: The gate ignores cancellation: the step ends when its operation returns.
    await finished(task)
    #expect(store.state == levels)
    #expect(runtimeOf(store).inFlight.isEmpty && runtimeOf(store).byID.isEmpty)
    await eventually { alive.current == 0 }
  }

  @Test("50,000 alternating levels, the store released mid-flight: everything is released")
  func alternatingNestingReleased() async {
    let (gate, alive, levels) = (Gate(), Alive(), 50_000)
    var store: Store<Int, Action>? = Store<Int, Action>(asInApp: 0) { _, action in
      action == .start ? Self.alternating(levels, gate, alive) : .none
    }
    weak let weakStore = store
    let task = store!.send(.start)
    store = nil
    #expect(weakStore == nil)
    gate.open()
    await finished(task)
    #expect(task.isCancelled)
    await eventually { alive.current == 0 }
  }

  @Test("50,000 nested cancellables each inside a merge under the next id (groups 50,000 deep)")
  func deepGroups() async {
    let (gate, alive, levels) = (Gate(), Alive(), 50_000)
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start:
        let token = alive.token()
        var effect = Effect<Action>.run { _ in
          _ = token
          await gate.wait()
        }
        for level in 0..<levels {
          effect = .merge(effect, .none, .send(.tick)).cancellable(id: level)
        }
        return effect.cancellable(id: -1, cancelInFlight: true)
      case .stop: return .cancel(id: levels / 2)
      default:
        count += 1
        return .none
      }
    }
    let task = store.send(.start)
    #expect(store.state == levels)
    store.send(.start)  // cancelInFlight: the whole first tree goes
    store.send(.stop)
    gate.open()
    await finished(task)
    #expect(runtimeOf(store).inFlight.isEmpty && runtimeOf(store).byID.isEmpty)
    await eventually { alive.current == 0 }
  }

  @Test("a debounce of an hour replaced 1,000 times keeps only the newest effect's captures")
  func longDebounceChurn() async {
    // NB: A TestClock: a cancelled `Task.sleep` keeps its timer until its deadline (LeakSanitizer).
    let (alive, clock) = (Alive(), TestClock())
    let store = Store<Int, Action>(asInApp: 0) { _, action in
      guard action == .start else { return .none }
      let token = alive.token()
      return .run { _ in _ = token }.debounce(id: "search", for: .seconds(3_600), clock: clock)
    }
    for _ in 0..<1_000 { store.send(.start) }
    await eventually { alive.current <= 1 }
    #expect(alive.current <= 1)
    store.send(.stop)
    #expect(runtimeOf(store).inFlight.count == 1)
  }

  // MARK: - Ids churned

  @Test("20,000 sends each under a new UUID id, ended: the tables shrink back")
  func uuidChurn() async {
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start: return .run { send in await send(.tick) }.cancellable(id: UUID())
      case .tick:
        count += 1
        return .none
      default: return .none
      }
    }
    var tasks: [StoreTask] = []
    for _ in 0..<20_000 { tasks.append(store.send(.start)) }
    await finished(tasks)
    #expect(store.state == 20_000)
    let r = runtimeOf(store)
    #expect(r.byID.isEmpty && r.inFlight.isEmpty)
    #expect(r.byID.capacity <= keptCapacity && r.inFlight.capacity <= keptCapacity)
  }

  @Test("subscribe and cancel 100,000 times: the listeners keep a few slots")
  func subscribeChurn() {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    var calls = 0
    for _ in 0..<100_000 {
      let subscription = store.subscribe { _ in calls += 1 }
      store.send(.tick)
      subscription.cancel()
    }
    #expect(calls == 200_000)
    #expect(store.listeners.isEmpty && store.listeners.capacity <= keptCapacity)
  }

  // MARK: - What a send keeps of its own history

  /// An action that carries a token, to count the actions something still holds.
  fileprivate enum Chain: Sendable { case link(Int, Alive.Token) }

  @Test("a chain of 10,000 .send links in one send: the links already reduced are released")
  func sendChainKeepsNoHistory() {
    let (alive, links) = (Alive(), 10_000)
    var aliveAtLastLink = -1
    let store = Store<Int, Chain>(initialState: 0) { count, action in
      guard case .link(let n, _) = action else { return .none }
      count += 1
      if n == 0 {
        aliveAtLastLink = alive.current
        return .none
      }
      return .send(.link(n - 1, alive.token()))
    }
    store.send(.link(links, alive.token()))
    #expect(store.state == links + 1)
    #expect(alive.current == 0)
    // Each link reduced is history: while the last is reduced, only it (and its sender) are work.
    withKnownIssue("Documented (Guarantees): a send keeps the actions it reduced until it returns")
    {
      #expect(aliveAtLastLink <= 4, "actions alive while the last link is reduced")
    }
  }

  // MARK: - Scoped stores

  @Test("a chain of 1,000 Equatable scopes: a send through the deepest reads each level once")
  func scopeChainCost() {
    let (depth, reads) = (1_000, Locked(0))
    let root = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    var scopes: [Store<Int, Action>] = [root]
    for _ in 0..<depth {
      scopes.append(
        scopes.last!.scope(
          state: { state in
            reads.withLock { $0 += 1 }
            return state
          }, action: { $0 }))
    }
    var heard = 0
    let subscription = scopes.last!.subscribe { _ in heard += 1 }
    reads.withLock { $0 = 0 }
    scopes.last!.send(.tick)
    #expect(root.state == 1 && heard == 2)
    let perSend = reads.withLock { $0 }
    subscription.cancel()
    // A send reads the state at each of the 1,000 levels: linear would be a few thousand reads.
    withKnownIssue("Documented (CompositionAndScoping): telling a chain of d scopes costs d²/2") {
      #expect(perSend <= 10 * depth, "reads of a level's state in one send: \(perSend)")
    }
  }

  @Test("10,000 scoped stores of rows made and released: the root keeps none of them")
  func scopedStoresReleased() {
    struct Row: Equatable, Identifiable { var id: Int, n = 0 }
    let root = Store<[Row], Action>(initialState: (0..<100).map { Row(id: $0) }) { rows, _ in
      rows[0].n += 1
      return .none
    }
    for round in 0..<100 {
      var stores: [Store<Row, Action>] = []
      for id in 0..<100 {
        stores.append(root.scope(state: { $0[id] }, action: { $0 }))
      }
      _ = stores.map { $0.state }
      root.send(.tick)
      #expect(stores[0].state.n == round + 1)
    }
    root.send(.tick)
    #expect(root.layers.scopes.count <= keptCapacity)
    #expect(root.layers.scopes.capacity <= 4 * keptCapacity)
  }

  // MARK: - Endurance of child features

  @Test("a sheet presented and dismissed 5,000 times with an effect each time leaves nothing")
  func sheetChurn() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    for round in 0..<5_000 {
      store.send(.present(round))
      store.send(.sheet(.listen))
      store.send(.dismissSheet)
    }
    let r = runtimeOf(store)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty && r.watched.isEmpty)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    #expect(r.watched.capacity <= keptCapacity)
    await eventually { alive.current == 0 }
  }

  @Test("a sheet that dismisses itself 5,000 times, from a reducer or its effect, leaves nothing")
  func sheetDismissesItselfChurn() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    var tasks: [StoreTask] = []
    for round in 0..<5_000 {
      store.send(.present(round))
      store.send(.sheet(.listen))
      if round.isMultiple(of: 2) {
        store.send(.sheet(.close))
        #expect(store.state.sheet == nil)
      } else {
        tasks.append(store.send(.sheet(.closeFromEffect)))
      }
    }
    await finished(tasks)
    #expect(store.state.sheet == nil)
    let r = runtimeOf(store)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty && r.watched.isEmpty)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    await eventually { alive.current == 0 }
  }

  @Test("a screen pushed and popped 5,000 times with an effect each time leaves nothing")
  func stackChurn() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    store.send(.push(-1))
    let bottom = store.state.path.ids[0]
    store.send(.path(id: bottom, action: .listen))
    for round in 0..<5_000 {
      store.send(.push(round))
      store.send(.path(id: store.state.path.ids.last!, action: .listen))
      store.send(.pop)
    }
    let r = runtimeOf(store)
    #expect(r.inFlight.count == 1 && r.byID.count == 1 && r.watched.count == 1)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    #expect(r.watched.capacity <= keptCapacity)
    await eventually { alive.current == 1 }
  }

  @Test("rows added and removed 5,000 times, each with an effect: the tables return to one row")
  func rowChurn() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    store.send(.add(-1))
    store.send(.row(id: -1, action: .listen))
    for round in 0..<5_000 {
      store.send(.add(round))
      store.send(.row(id: round, action: .listen))
      store.send(.remove(round))
    }
    let r = runtimeOf(store)
    #expect(r.inFlight.count == 1 && r.byID.count == 1 && r.watched.count == 1)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    await eventually { alive.current == 1 }
  }

  @Test("a forEach reducer value outliving its store keeps no ids of rows gone")
  func forEachIndexKeepsIDs() {
    let alive = Alive()
    let reducer = Reduce<ProbeTokenRows.State, ProbeTokenRows.Action> { _, _ in .none }
      .forEach(\.rows, action: ProbeTokenRows.Action.row) {
        (row: inout ProbeTokenRows.Row, _: Int) in
        row.n += 1
        return .none
      }
    do {
      let rows = (0..<1_000).map { ProbeTokenRows.Row(id: .init(alive, $0)) }
      let store = Store(initialState: ProbeTokenRows.State(rows: rows), reducer.reduce)
      store.send(.row(id: rows[999].id, action: 1))
      #expect(store.state.rows[999].n == 1)
    }
    #expect(alive.current >= 0)
    withKnownIssue("Documented (Guarantees): a forEach keeps the ids of the last list it looked in")
    {
      #expect(alive.current == 0, "row ids still alive after the store and its rows are gone")
    }
  }

  // MARK: - Listeners

  @Test("a listener that sends on each of 10,000 notifications: all reduced, never nested")
  func listenerSendsRecursively() {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    var depth = 0
    var deepest = 0
    let subscription = store.subscribe { [weak store] count in
      depth += 1
      deepest = max(deepest, depth)
      if count < 10_000 { store?.send(.tick) }
      depth -= 1
    }
    store.send(.tick)
    subscription.cancel()
    #expect(store.state == 10_001)  // the first call's chain, then the send's own tick
    #expect(deepest == 1)
  }

  @Test("1,000 listeners of which the first cancels itself: each of the others hears once")
  func listenerCancelsDuringNotification() {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    var subscriptions: [StoreSubscription] = []
    var heard = 0
    subscriptions.append(store.subscribe { [weak store] _ in _ = store })
    for _ in 0..<1_000 { subscriptions.append(store.subscribe { _ in heard += 1 }) }
    heard = 0
    let first = subscriptions[0]
    let canceller = store.subscribe { count in if count == 1 { first.cancel() } }
    store.send(.tick)
    #expect(heard == 1_000)
    canceller.cancel()
    for subscription in subscriptions { subscription.cancel() }
  }

  // MARK: - Children that change who they are

  @Test("a sheet that gives itself a new id 5,000 times, with an effect each time, leaves one")
  func sheetRenamesItself() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    store.send(.present(0))
    for _ in 0..<5_000 { store.send(.sheet(.renameAndListen)) }
    #expect(store.state.sheet?.id == 5_000)
    let r = runtimeOf(store)
    #expect(r.inFlight.count == 1 && r.byID.count == 1 && r.watched.count == 1)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    await eventually { alive.current == 1 }
    store.send(.dismissSheet)
    await eventually { alive.current == 0 }
  }

  @Test("a row that gives itself a new id 5,000 times, with an effect each time, leaves one")
  func rowRenamesItself() async {
    let alive = Alive()
    let store = Store(asInApp: ProbeParent.State(), ProbeParent.reducer(alive).reduce)
    for id in 0..<100 { store.send(.add(id * 1_000_000)) }
    for n in 0..<5_000 { store.send(.row(id: n, action: .renameAndListen)) }
    #expect(store.state.rows[0].id == 5_000)
    let r = runtimeOf(store)
    #expect(r.inFlight.count == 1 && r.byID.count == 1 && r.watched.count == 1)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
    await eventually { alive.current == 1 }
    store.send(.remove(5_000))
    await eventually { alive.current == 0 }
  }

  // MARK: - Listeners churned during notifications

  @Test("10,000 notifications, each subscribing a one-shot listener: the listeners stay few")
  func oneShotListeners() {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    var heard = 0
    let subscription = store.subscribe { [weak store] count in
      guard let store, count > 0 else { return }
      let box = SubscriptionBox()
      box.subscription = store.subscribe { [box] seen in
        guard seen > count else { return }
        heard += 1
        box.subscription?.cancel()
        box.subscription = nil
      }
    }
    for _ in 0..<10_000 { store.send(.tick) }
    #expect(heard == 9_999)
    #expect(store.listeners.count <= 2 && store.listeners.capacity <= keptCapacity)
    subscription.cancel()
  }

  @Test("1,000 consumers of states that leave: the listeners stay few")
  func statesConsumersLeave() async {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    for _ in 0..<1_000 {
      for await _ in store.states { break }
    }
    store.send(.tick)
    #expect(store.listeners.count <= 1 && store.listeners.capacity <= keptCapacity)
  }

  // MARK: - A list read through its store

  /// The address of `rows`' storage: it moves when a change copies the whole array.
  static func storage(_ rows: [Int]) -> UnsafeRawPointer? {
    rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  @Test("100,000 rows read through the store by a view: a send that changes one copies none")
  func observedListCopies() {
    struct State: Equatable { var rows = Array(repeating: 0, count: 100_000) }
    let store = Store<State, Action>(initialState: State()) { state, _ in
      state.rows[99_999] += 1
      return .none
    }
    store.send(.tick)
    let before = Self.storage(store.state.rows)
    store.send(.tick)
    #expect(Self.storage(store.state.rows) == before)  // control: no one reads rows
    let told = Locked(0)
    withObservationTracking {
      _ = store.rows
    } onChange: {
      told.withLock { $0 += 1 }
    }
    let observed = Self.storage(store.state.rows)
    store.send(.tick)
    #expect(told.current == 1 && store.state.rows[99_999] == 3)
    withKnownIssue(
      "Documented (Guarantees): a property an observer read is kept, so a change copies it"
    ) {
      #expect(Self.storage(store.state.rows) == observed, "the 100,000 rows were copied")
    }
  }

  // MARK: - A state that is a class

  final class Ref: Equatable {
    var count = 0
    static func == (lhs: Ref, rhs: Ref) -> Bool { lhs.count == rhs.count }
  }

  @Test("a state that is a class: a scope's observers hear of a change, or it is reported")
  func classState() async {
    let (heard, reports) = await capturingReports {
      let store = Store<Ref, Action>(initialState: Ref()) { ref, _ in
        ref.count += 1
        return .none
      }
      let scoped: Store<Ref, Action> = store.scope(state: { $0 }, action: { $0 })
      var heard = 0
      let subscription = scoped.subscribe { _ in heard += 1 }
      store.send(.tick)
      store.send(.tick)
      subscription.cancel()
      #expect(store.state.count == 2)
      return heard
    }
    withKnownIssue(
      "Documented (Guarantees): a class state's changes are not seen by an Equatable scope"
    ) {
      #expect(heard == 3 || reports.contains { $0.contains("MiniRedux") }, "heard: \(heard)")
    }
  }

  // MARK: - Generic and indirect action enums

  enum GenericAction<T: Sendable>: Sendable { case sheet(ProbeChildAction), other(T), present }
  indirect enum IndirectAction: Sendable {
    case sheet(ProbeChildAction), wrap(IndirectAction), present
  }

  @Test("a generic and an indirect action enum embed a child with ifLet: its actions arrive")
  func genericAndIndirectActions() async {
    struct State: Equatable { var sheet: Int? }
    let child: Reducer<Int, ProbeChildAction> = { n, _ in
      n += 1
      return .none
    }
    let generic = Reduce<State, GenericAction<[Int]>> { state, action in
      if case .present = action { state.sheet = 0 }
      return .none
    }.ifLet(\.sheet, action: GenericAction.sheet, child: child)
    let indirect = Reduce<State, IndirectAction> { state, action in
      if case .present = action { state.sheet = 0 }
      return .none
    }.ifLet(\.sheet, action: IndirectAction.sheet, child: child)
    let (_, reports) = await capturingReports {
      let a = Store(initialState: State(), generic.reduce)
      a.send(.other([1]))
      a.send(.present)
      a.send(.sheet(.tap))
      a.send(.other([2]))
      #expect(a.state.sheet == 1)
      let b = Store(initialState: State(), indirect.reduce)
      b.send(.wrap(.present))
      b.send(.present)
      b.send(.sheet(.tap))
      b.send(.wrap(.sheet(.tap)))
      #expect(b.state.sheet == 1)
    }
    #expect(reports.isEmpty, "\(reports)")
  }

  // MARK: - A recursive feature, nested deep

  @Test("a recursive feature 150 deep: the bottom's effect ends by the root's cancel and removal")
  func recursiveFeature() async {
    let depth = ProcessInfo.processInfo.environment["PROBE_DEPTH"].flatMap(Int.init) ?? 150
    let alive = Alive()
    func path(_ level: Int, _ action: ProbeNode.Action) -> ProbeNode.Action {
      (0..<level).reduce(action) { inner, _ in .child(id: 1, action: inner) }
    }
    let (store, reports) = await capturingReports {
      let store = Store(initialState: ProbeNode.State(), ProbeNode.reducer(alive).reduce)
      for level in 0..<depth { store.send(path(level, .add)) }
      store.send(path(depth, .listen))
      #expect(alive.current == 1 && runtimeOf(store).inFlight.count == 1)
      store.send(.stop)  // the root's .cancel(id:) reaches down
      await eventually { alive.current == 0 }
      store.send(path(depth, .listen))
      store.send(path(depth / 2, .add))  // a sibling half way down
      store.send(.child(id: 1, action: .removeAll))  // the root's child's children go
      await eventually { alive.current == 0 }
      return store
    }
    #expect(runtimeOf(store).inFlight.isEmpty && runtimeOf(store).byID.isEmpty)
    #expect(runtimeOf(store).watched.isEmpty)
    #expect(reports.isEmpty, "\(reports)")
  }
}

enum ProbeChildAction: Sendable { case tap }

/// A feature whose children are features of its own kind.
private enum ProbeNode {
  struct State: Equatable, Identifiable {
    var id = 1
    var children: [State] = []
  }
  indirect enum Action: Sendable {
    case child(id: Int, action: Action), add, listen, stop, removeAll
  }
  static func reducer(_ alive: Alive) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .add:
        state.children.append(.init(id: state.children.count + 1))
        return .none
      case .listen:
        let token = alive.token()
        return .run { _ in
          _ = token
          await untilCancelled()
        }.cancellable(id: "listen")
      case .stop: return .cancel(id: "listen")
      case .removeAll:
        state.children.removeAll()
        return .none
      case .child: return .none
      }
    }
    .forEach(\.children, action: Action.child) { state, action in
      reducer(alive).reduce(&state, action)
    }
  }
}

@MainActor private final class SubscriptionBox { var subscription: StoreSubscription? }

/// Rows whose ids are objects that count themselves.
private enum ProbeTokenRows {
  final class ID: Hashable, Sendable {
    let (token, value): (Alive.Token, Int)
    init(_ alive: Alive, _ value: Int) { (token, self.value) = (alive.token(), value) }
    static func == (lhs: ID, rhs: ID) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
  }
  struct Row: Equatable, Identifiable {
    let id: ID
    var n = 0
  }
  struct State: Equatable { var rows: [Row] }
  enum Action: Sendable { case row(id: ID, action: Int) }
}

/// A parent with a sheet, rows and a stack of the same child, whose `.listen` runs until cancelled.
private enum ProbeChild {
  struct State: Equatable, Identifiable { var id: Int, n = 0 }
  enum Action: Equatable, Sendable { case listen, got, close, renameAndListen, closeFromEffect }
  static func reducer(_ alive: Alive) -> Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .renameAndListen:
        state.id += 1
        return reducer(alive).reduce(&state, .listen)
      case .listen:
        let token = alive.token()
        return .run { _ in
          _ = token
          await untilCancelled()
        }
      case .got:
        state.n += 1
        return .none
      case .close: return .dismiss
      case .closeFromEffect: return .run { send in await send.dismiss() }
      }
    }
  }
}

private enum ProbeParent {
  struct State: Equatable {
    var sheet: ProbeChild.State?
    var rows: [ProbeChild.State] = []
    var path = StackState<ProbeChild.State>()
  }
  enum Action: Equatable, Sendable {
    case sheet(ProbeChild.Action), row(id: Int, action: ProbeChild.Action)
    case path(id: Int, action: ProbeChild.Action)
    case present(Int), dismissSheet, add(Int), remove(Int), push(Int), pop
  }
  static func reducer(_ alive: Alive) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .present(let id): state.sheet = .init(id: id)
      case .dismissSheet: state.sheet = nil
      case .add(let id): state.rows.append(.init(id: id))
      case .remove(let id): state.rows.removeAll { $0.id == id }
      case .push(let id): state.path.append(.init(id: id))
      case .pop: state.path.removeLast()
      case .sheet, .row, .path: break
      }
      return .none
    }
    .ifLet(\.sheet, action: Action.sheet, child: ProbeChild.reducer(alive))
    .forEach(\.rows, action: Action.row, child: ProbeChild.reducer(alive))
    .forEach(\.path, action: Action.path, child: ProbeChild.reducer(alive))
  }
}
