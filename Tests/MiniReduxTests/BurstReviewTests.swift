import Foundation
import Testing

@testable import MiniRedux

// Probes of an adversarial review of the tables that give back the room of a burst, children's
// keys boxed by their embedding, composite effects that build no array of their parts in order,
// and the clocks' inferred Instant. Each test names the rule it checks.

private enum Burst {
  enum Action: Equatable, Sendable { case start(Int), startGroup(Int), startChain(Int), stop, tick }
  static func reduce(_ ended: Locked<Int>) -> Reducer<Int, Action> {
    { state, action in
      func long() -> Effect<Action> {
        .run { _ in
          await untilCancelled()
          ended.withLock { $0 += 1 }
        }
      }
      switch action {
      case .start(let n):
        return .merge((0..<n).map { _ in long().cancellable(id: "burst") })
      case .startGroup(let n):
        return .merge((0..<n).map { _ in long() }).cancellable(id: "group")
      case .startChain(let n):
        return .concatenate((0..<n).map { _ in Effect<Action>.run { _ in } }).cancellable(
          id: "chain")
      case .stop: return .cancel(id: "burst")
      case .tick:
        state += 1
        return .none
      }
    }
  }
}

@MainActor private final class SubscriptionBox { var all: [StoreSubscription] = [] }

@MainActor private func registry<S, A>(_ store: Store<S, A>) -> Registry {
  (store.core as AnyObject) as! Registry
}

@MainActor @Suite("Burst review: a store's tables give back the room of a burst")
struct BurstReviewTableTests {
  // Rule: `.cancel(id:)` ends every effect under the id (none lost, none twice), and once the
  // burst has ended its tables are given back the room it made (Guarantees.md).
  @Test func cancellingAnIdWithThousandsOfEffects() async {
    let ended = Locked(0)
    let store = Store(initialState: 0, Burst.reduce(ended))
    let task = store.send(.start(2_000))
    #expect(registry(store).inFlight.count == 2_000)
    store.send(.stop)
    await finished(task)
    #expect(ended.current == 2_000)  // each ended once
    let r = registry(store)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
  }

  // Rule: `cancelInFlight` cancels what runs under the id while others end by themselves; each
  // effect ends once; tables end empty and small.
  @Test func cancelInFlightWhileMembersEnd() async {
    let gate = Gate()
    let (ended, started) = (Locked(0), Locked(0))
    let store = Store(initialState: 0) { (_: inout Int, action: Int) -> Effect<Int> in
      let some = (0..<action).map { i -> Effect<Int> in
        .run { _ in
          started.withLock { $0 += 1 }
          if i % 2 == 0 { await gate.wait() } else { await untilCancelled() }
          ended.withLock { $0 += 1 }
        }
      }
      return .merge(some).cancellable(id: "x", cancelInFlight: true)
    }
    let first = store.send(2_000)
    gate.open()  // half end by themselves, on the executor, while the next send cancels
    let second = store.send(2_000)
    let r = registry(store)
    second.cancel()
    await finished(first, second)
    #expect(started.current == 4_000)
    #expect(ended.current == 4_000)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty)
    #expect(r.inFlight.capacity <= keptCapacity && r.byID.capacity <= keptCapacity)
  }

  // Rule: `StoreTask.cancel()` cancels all of its effects, and only its own, during a burst.
  @Test func storeTaskCancelDuringBurst() async {
    let ended = Locked(0)
    let store = Store(initialState: 0, Burst.reduce(ended))
    let other = store.send(.startGroup(1_500))
    let task = store.send(.start(3_000))
    let chain = store.send(.startChain(50))
    task.cancel()
    await finished(task, chain, within: patience)
    #expect(ended.current == 3_000)
    #expect(task.isCancelled && !other.isCancelled)
    #expect(registry(store).inFlight.count == 1_500)
    #expect(registry(store).byID.count == 1)
    other.cancel()
    await finished(other)
    let r = registry(store)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty && r.inFlight.capacity <= keptCapacity)
  }

  // Rule: a group (a merge under an id) with many children that end one by one keeps its id's
  // table, and its own list of children, at the size of what still runs.
  @Test func groupWithManyChildrenGivesRoomBack() async {
    let gate = Gate()
    let store = Store(initialState: 0) { (_: inout Int, n: Int) -> Effect<Int> in
      .merge(
        [Effect<Int>.run { _ in await untilCancelled() }.cancellable(id: "each")]
          + (0..<n).map { _ in Effect<Int>.run { _ in await gate.wait() }.cancellable(id: "each") }
      ).cancellable(id: "group")
    }
    let task = store.send(5_000)
    let r = registry(store)
    #expect(r.inFlight.count == 5_001)
    gate.open()
    await eventually { r.inFlight.count == 1 }
    #expect(r.inFlight.capacity <= keptCapacity)
    #expect(r.byID.count == 2)
    for (_, members) in r.byID {
      #expect(members.others.isEmpty)
      #expect(members.others.capacity <= keptCapacity)
      if members.first.isGroup { #expect(members.first.children.capacity <= keptCapacity) }
    }
    task.cancel()
    await finished(task)
  }

  // Rule: `.cancel(id:)` inside a group still starting under that id cancels all it started so
  // far, the group staying until its parts have started; nothing is left behind after.
  @Test func cancelInsideGroupStillStarting() async {
    let ended = Locked(0)
    let store = Store(initialState: 0) { (_: inout Int, n: Int) -> Effect<Int> in
      guard n > 0 else { return .none }
      let runs = (0..<n).map { _ in
        Effect<Int>.run { _ in
          await untilCancelled()
          ended.withLock { $0 += 1 }
        }.cancellable(id: "inner")
      }
      return .merge([.cancel(id: "g")] + runs + [.cancel(id: "g")] + runs).cancellable(id: "g")
    }
    let task = store.send(1_000)
    let r = registry(store)
    #expect(r.inFlight.count == 1_000)  // the second half runs
    #expect(r.byID.count == 2)
    store.send(-1)  // any send
    task.cancel()
    await finished(task)
    #expect(ended.current == 2_000)
    #expect(r.inFlight.isEmpty && r.byID.isEmpty && r.byID.capacity <= keptCapacity)
  }

  // Rule: a concatenation of thousands of steps leaves nothing behind and keeps its order.
  @Test func longConcatenationKeepsOrderAndEndsEmpty() async {
    let store = Store(initialState: [Int]()) { (state: inout [Int], action: Int) -> Effect<Int> in
      if action >= 0 { state.append(action) }
      guard action == -1 else { return .none }
      return .concatenate((0..<300).map { i in .run { send in await send(i) } })
    }
    // NB: 300 hops to the main actor, one after another; under a sanitizer, beside the suite's
    // other tests, each can wait 160 ms (3,000 timed out there).
    await finished(store.send(-1), within: patience)
    expectSame(store.state, Array(0..<300))
    let r = registry(store)
    #expect(r.inFlight.isEmpty && r.inFlight.capacity <= keptCapacity)
  }

  // Rule: amortized costs, a copy per 3n removals at most: counts oscillating around a
  // threshold make no copy per removal (swapRemove's arrays, byID).
  @Test func oscillationAroundThresholdCopiesRarely() {
    var array = Array(0..<1_000)
    while array.count > 40 { _ = swapRemove(&array, at: 0) }
    var copies = 0
    for step in 0..<20_000 {
      if step % 2 == 0 {
        array.append(step)
      } else {
        let before = array.withUnsafeBufferPointer { $0.baseAddress }
        _ = swapRemove(&array, at: 0)
        if before != array.withUnsafeBufferPointer({ $0.baseAddress }) { copies += 1 }
      }
    }
    #expect(copies <= 2)
    // Down and up by a factor of four, repeatedly: a copy per round at most.
    var rounds = 0
    for _ in 0..<50 {
      while array.count < 400 { array.append(0) }
      while array.count > 20 {
        let before = array.withUnsafeBufferPointer { $0.baseAddress }
        _ = swapRemove(&array, at: array.count / 2)
        if before != array.withUnsafeBufferPointer({ $0.baseAddress }) { rounds += 1 }
      }
    }
    #expect(rounds <= 50 * 3)
  }

  @Test func byIDOscillationCopiesRarely() {
    let r = Registry()
    let lineage = StoreTask(r)
    var effects = (0..<2_000).map { i in
      RunningEffect(lineage: lineage, parent: nil, ids: (TypedEffectID(i), []))
    }
    effects.forEach(r.register)
    while effects.count > 60 { r.unregister(effects.removeLast(), cancellingTask: false) }
    var (copies, next) = (0, 10_000)
    for step in 0..<20_000 {
      if step % 2 == 0 {
        let e = RunningEffect(lineage: lineage, parent: nil, ids: (TypedEffectID(next), []))
        next += 1
        r.register(e)
        effects.append(e)
      } else {
        let (room, inflight) = (r.byID.capacity, r.inFlight.capacity)
        r.unregister(effects.removeLast(), cancellingTask: false)
        if r.byID.capacity < room { copies += 1 }
        if r.inFlight.capacity < inflight { copies += 1 }
      }
    }
    #expect(copies <= 4)
    // Many effects under one id, oscillating: its `others` is not copied per removal either.
    let id = TypedEffectID("one")
    var members = (0..<1_000).map { _ in RunningEffect(lineage: lineage, parent: nil, ids: (id, []))
    }
    members.forEach(r.register)
    while members.count > 30 { r.unregister(members.removeLast(), cancellingTask: false) }
    var otherCopies = 0
    for step in 0..<20_000 {
      if step % 2 == 0 {
        let e = RunningEffect(lineage: lineage, parent: nil, ids: (id, []))
        r.register(e)
        members.append(e)
      } else {
        let room = r.byID[id]!.others.capacity
        r.unregister(members.removeLast(), cancellingTask: false)
        if r.byID[id]!.others.capacity < room { otherCopies += 1 }
      }
    }
    #expect(otherCopies <= 2)
  }

  // Rule: a listener cancelled during a notification hears nothing more (StoreSubscription), the
  // others hear each send once; churn leaves the list at the size of the subscriptions left.
  @Test func listenersCancelledInsideNotification() {
    let store = Store(initialState: 0, Burst.reduce(Locked(0)))
    var heard = [Int](repeating: 0, count: 1_000)
    let box = SubscriptionBox()
    for i in 0..<1_000 {
      box.all.append(
        store.subscribe { _ in
          heard[i] += 1
          // The first listener cancels all but the last ten, mid-notification.
          if i == 0, box.all.count == 1_000 { for s in box.all[1..<990] { s.cancel() } }
        })
    }
    store.send(.tick)
    #expect(heard[0] == 2)
    #expect(heard[1..<990].allSatisfy { $0 == 1 })
    #expect(heard[990...].allSatisfy { $0 == 2 })
    #expect(store.listeners.count == 11)
    #expect(store.listeners.capacity <= 4 * 11 || store.listeners.capacity <= keptCapacity)
    store.send(.tick)
    #expect(heard[990...].allSatisfy { $0 == 3 } && heard[0] == 3)
    // Churn: subscribe and cancel around a count, many times; each listener hears its sends.
    var count = 0
    for _ in 0..<5_000 {
      let s = store.subscribe { _ in count += 1 }
      s.cancel()
    }
    #expect(count == 5_000)
    for s in box.all { s.cancel() }
    #expect(store.listeners.isEmpty && store.listeners.capacity <= keptCapacity)
  }

  // Rule: scoped stores released leave the parent's list at their number (HowItWorks, scopes).
  @Test func releasedScopesGiveRoomBack() {
    let store = Store(initialState: 0, Burst.reduce(Locked(0)))
    var scopes: [Store<Int, Burst.Action>] = []
    for _ in 0..<2_000 { scopes.append(store.scope(state: { $0 }, action: { $0 })) }
    let kept = scopes[7]
    var heard = 0
    let sub = kept.subscribe { _ in heard += 1 }
    scopes = []
    store.send(.tick)
    store.send(.tick)
    #expect(store.layers.scopes.count == 1)
    #expect(store.layers.scopes.capacity <= keptCapacity)
    #expect(heard == 3 && kept.state == 2)
    sub.cancel()
  }
}

// MARK: - Children's keys
private struct Screen: Identifiable, Equatable {
  var id: String
  var n = 0
}
private enum ScreenAction: Equatable, Sendable { case start, tick }
private func screenReduce(_ state: inout Screen, _ action: ScreenAction) -> Effect<ScreenAction> {
  switch action {
  case .start: return .run { _ in await untilCancelled() }
  case .tick:
    state.n += 1
    return .none
  }
}
private struct Stack: Equatable {
  var path = StackState<Screen>()
  var rows: [Screen] = []
  var tag = 0
}
private enum StackAction: Equatable, Sendable {
  case byStack(Int, ScreenAction), byID(String, ScreenAction), rows(String, ScreenAction), bump
}

@MainActor @Suite("Burst review: children's keys, boxed by their embedding")
struct BurstReviewKeyTests {
  // Rule: rows whose ids change in place end their effects (the id's child is gone) and a row
  // feature reused at two levels keeps each level's children apart.
  @Test func rowIdChangesInPlaceEndsItsEffects() async {
    let reducer = Reduce<Stack, StackAction> { state, action in
      if case .bump = action { state.rows[0].id = "renamed" }
      return .none
    }
    .forEach(\.rows, action: StackAction.rows, child: screenReduce)
    let store = Store(
      initialState: Stack(rows: [Screen(id: "a"), Screen(id: "b")]), reducer.reduce)
    let a = store.send(.rows("a", .start))
    let b = store.send(.rows("b", .start))
    store.send(.bump)
    await finished(a)
    #expect(a.isCancelled && !b.isCancelled)
    #expect(registry(store).watched.count == 1)
    b.cancel()
  }

  // Rule: the same static reducer value in two stores, and two lists of one value alternating,
  // end each child's effects exactly when its row goes (the index rebuilt between looks).
  @Test func oneReducerValueTwoStoresAlternating() async {
    let reducer = Reduce<Stack, StackAction> { state, action in
      if case .bump = action { state.rows.removeLast() }
      return .none
    }
    .forEach(\.rows, action: StackAction.rows, child: screenReduce)
    let rows1 = (0..<300).map { Screen(id: "s\($0)") }
    let rows2 =
      (0..<300).map { Screen(id: "s\(299 - $0)") } + [Screen(id: "dup"), Screen(id: "dup")]
    let one = Store(initialState: Stack(rows: rows1), reducer.reduce)
    let two = Store(initialState: Stack(rows: rows2), reducer.reduce)
    var tasks: [(StoreTask, StoreTask)] = []
    for i in 0..<300 {
      tasks.append((one.send(.rows("s\(i)", .start)), two.send(.rows("s\(i)", .start))))
    }
    for _ in 0..<100 {
      one.send(.bump)  // removes s(299 - step) from one
      two.send(.bump)  // removes the duplicate, then s0, s1, ... from two
      two.send(.rows("s\(150)", .tick))
    }
    await eventually { tasks[299 - 99].0.isCancelled }
    for i in 0..<300 {
      #expect(tasks[i].0.isCancelled == (i >= 200), "one: s\(i)")
      #expect(tasks[i].1.isCancelled == (i < 98), "two: s\(i)")
    }
    for (a, b) in tasks {
      a.cancel()
      b.cancel()
    }
  }

  // Rule: dictionary-values rows end a row's effects when its key leaves the dictionary.
  @Test func dictionaryValuesRows() async {
    struct State: Equatable { var rows: [String: Screen] = [:] }
    enum Action: Equatable, Sendable { case row(String, ScreenAction), drop(String) }
    let reducer = Reduce<State, Action> { state, action in
      if case .drop(let key) = action { state.rows[key] = nil }
      return .none
    }
    .forEach(\.rows.values, action: Action.row, child: screenReduce)
    var initial = State()
    for i in 0..<200 { initial.rows["k\(i)"] = Screen(id: "k\(i)") }
    let store = Store(initialState: initial, reducer.reduce)
    let tasks = (0..<200).map { store.send(.row("k\($0)", .start)) }
    for i in stride(from: 0, to: 200, by: 2) { store.send(.drop("k\(i)")) }
    store.send(.row("k1", .tick))
    #expect(store.state.rows["k1"]?.n == 1)
    for i in 0..<200 { #expect(tasks[i].isCancelled == (i % 2 == 0), "k\(i)") }
    tasks.forEach { $0.cancel() }
  }

  // Rule: thousands of rows removed at once end all their effects in that send; nothing stays
  // watched, and the tables are small again.
  @Test func endGoneChildrenRemovesThousands() async {
    let reducer = Reduce<Stack, StackAction> { state, action in
      if case .bump = action { state.rows.removeSubrange(1...) }
      return .none
    }
    .forEach(\.rows, action: StackAction.rows, child: screenReduce)
    let store = Store(
      initialState: Stack(rows: (0..<2_000).map { Screen(id: "r\($0)") }), reducer.reduce)
    let tasks = (0..<2_000).map { store.send(.rows("r\($0)", .start)) }
    store.send(.bump)
    #expect(tasks.dropFirst().allSatisfy(\.isCancelled) && !tasks[0].isCancelled)
    let r = registry(store)
    #expect(r.watched.count == 1 && r.inFlight.count == 1 && r.byID.count == 1)
    #expect(r.watched.capacity <= keptCapacity && r.inFlight.capacity <= keptCapacity)
    #expect(r.byID.capacity <= keptCapacity)
    store.send(.rows("r0", .tick))
    #expect(store.state.rows[0].n == 1)
    tasks[0].cancel()
  }
}

private struct Node: Identifiable, Equatable {
  var id: Int
  var children: [Node] = []
  var n = 0
}
private indirect enum NodeAction: Equatable, Sendable {
  case start, tick, child(Int, NodeAction), removeChild(Int)
}
private func nodeCore(_ state: inout Node, _ action: NodeAction) -> Effect<NodeAction> {
  switch action {
  case .start: return .run { _ in await untilCancelled() }
  case .tick:
    state.n += 1
    return .none
  case .removeChild(let id):
    state.children.removeAll { $0.id == id }
    return .none
  case .child: return .none
  }
}
private struct Tree2: Equatable {
  var path = StackState<Node>()
  var rows: [Node] = []
}
private enum Tree2Action: Equatable, Sendable {
  case byStack(Int, NodeAction), byID(Int, NodeAction), row(Int, NodeAction), alt(Int, NodeAction)
  case bump, removeRow(Int)
}

@MainActor @Suite("Burst review: one key path embedded twice, a feature reused at two levels")
struct BurstReviewKeyTests2 {
  // Rule: two forEach on one path with one id type agree; a row feature reused at two levels
  // (rows and their children) ends each level's effects with its own child only.
  @Test func twoForEachOnePathAndNestedReuse() async {
    let node = Reduce(nodeCore).forEach(\Node.children, action: NodeAction.child, child: nodeCore)
    let reducer = Reduce<Tree2, Tree2Action> { state, action in
      if case .removeRow(let id) = action { state.rows.removeAll { $0.id == id } }
      return .none
    }
    .forEach(\.rows, action: Tree2Action.row, child: node)
    .forEach(\.rows, action: Tree2Action.alt, child: nodeCore)
    let rows = (0..<3).map { i in Node(id: i, children: (0..<3).map { Node(id: $0) }) }
    let store = Store(initialState: Tree2(rows: rows), reducer.reduce)
    var own: [Int: StoreTask] = [:]
    var alt: [Int: StoreTask] = [:]
    var kids: [Int: StoreTask] = [:]
    for i in 0..<3 {
      own[i] = store.send(.row(i, .start))
      alt[i] = store.send(.alt(i, .start))
      for j in 0..<3 { kids[i * 10 + j] = store.send(.row(i, .child(j, .start))) }
    }
    store.send(.row(1, .removeChild(2)))  // an inner child goes
    #expect(kids[12]!.isCancelled)
    #expect(kids.filter { $0.key != 12 }.values.allSatisfy { !$0.isCancelled })
    #expect(own.values.allSatisfy { !$0.isCancelled } && alt.values.allSatisfy { !$0.isCancelled })
    store.send(.removeRow(0))  // an outer row goes, with its children
    #expect(own[0]!.isCancelled && alt[0]!.isCancelled)
    #expect((0..<3).allSatisfy { kids[$0]!.isCancelled })
    #expect(!own[2]!.isCancelled && !kids[20]!.isCancelled && !kids[10]!.isCancelled)
    store.send(.row(2, .child(1, .tick)))
    #expect(store.state.rows.last?.children[1].n == 1)
    for t in Array(own.values) + Array(alt.values) + Array(kids.values) { t.cancel() }
  }
}

// MARK: - Composite effects
private indirect enum Tree {
  case send(Int), merge([Tree]), concat([Tree])
}

@MainActor @Suite("Burst review: composite effects, in order and released at any depth")
struct BurstReviewCompositeTests {
  // Rule: parts start in order: a merge's sends, and a concatenation's steps, in the order given
  // at any nesting (merges inside steps; concatenations of concatenations).
  @Test func orderAtAnyNesting() {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      var next = 0
      func tree(_ depth: Int, mergeOnly: Bool) -> Tree {
        if depth == 0 || Int.random(in: 0..<4, using: &rng) == 0 {
          defer { next += 1 }
          return .send(next)
        }
        let n = Int.random(in: 1...4, using: &rng)
        let merge = mergeOnly || Bool.random(using: &rng)
        let parts = (0..<n).map { _ in tree(depth - 1, mergeOnly: merge) }
        return merge ? .merge(parts) : .concat(parts)
      }
      func effect(_ t: Tree) -> Effect<Int> {
        switch t {
        case .send(let i): .send(i)
        case .merge(let p): .merge(p.map(effect))
        case .concat(let p): .concatenate(p.map(effect))
        }
      }
      let t = tree(6, mergeOnly: false)
      let count = next
      let e = effect(t)
      let store = Store(initialState: [Int]()) { (state: inout [Int], action: Int) in
        if action >= 0 { state.append(action) }
        return action == -1 ? e : .none
      }
      store.send(-1)
      #expect(store.state == Array(0..<count), "\(t)")
    }
  }

  // Rule: a deep tree (100,000 levels) in any shape is released with no stack overflow, and
  // started, does all it holds; a subtree still referenced elsewhere survives the release.
  @Test func deepTreesReleaseInEveryShape() {
    let depth = 100_000
    func build(_ shape: Int) -> Effect<Int> {
      var e: Effect<Int> = Effect<Int>.none.cancellable(id: "deep", cancelInFlight: true)
      for i in 0..<depth {
        switch (shape, i % 5) {
        case (0, _): e = .merge(.send(1), e)
        case (1, _): e = .merge(e, .send(1))
        case (2, _): e = .concatenate(.send(1), e)
        case (3, _): e = .concatenate(e, .send(1))
        case (4, _): e = e.cancellable(id: i % 3)
        case (_, 0): e = .merge(e, .send(1), .none)
        case (_, 1): e = .concatenate(.none, e, .send(1))
        case (_, 2): e = e.cancellable(id: "mix")
        case (_, 3): e = .merge([e])
        default: e = .concatenate([.send(1), e])
        }
      }
      return e
    }
    let expected = [depth, depth, depth, depth, 0, depth / 5 * 3]
    for shape in 0..<6 {
      do { _ = build(shape) }  // released at once
      let shared = build(shape)
      var outer = Effect<Int>.merge(shared, .send(1))
      for _ in 0..<depth { outer = .concatenate(outer, .none) }
      outer = .none  // released while `shared` is still held
      let store = Store(initialState: 0) { (state: inout Int, action: Int) in
        state += action
        return action == 0 ? shared : .none
      }
      store.send(0)
      #expect(store.state == expected[shape], "shape \(shape)")
      _ = outer
    }
  }
}

// MARK: - Clocks: `Instant` inferred from `now` (compiles, or the build fails)
private func later<C: Clock<Duration>>(_ clock: C) -> C.Instant {
  clock.now.advanced(by: .seconds(1))
}
private struct Deadline<C: Clock> where C.Instant == ContinuousClock.Instant { var at: C.Instant }

@MainActor @Suite("Burst review: the clocks' Instant, inferred") struct BurstReviewClockTests {
  // Rule: public API keeps compiling: TestClock.Instant and ImmediateTestClock.Instant name
  // ContinuousClock.Instant, usable in user code, generics and `advance(to:)`/`sleep(until:)`.
  @Test func instantsStillCompile() async throws {
    let clock = TestClock()
    let deadline: TestClock.Instant = clock.now.advanced(by: .seconds(2))
    let same: ContinuousClock.Instant = deadline
    let generic: TestClock.Instant = later(clock)
    _ = Deadline<TestClock>(at: same)
    _ = Deadline<ImmediateTestClock>(at: ImmediateTestClock.Instant.now)
    let immediate = ImmediateTestClock()
    let start: ImmediateTestClock.Instant = immediate.now
    try await immediate.sleep(until: start.advanced(by: .seconds(5)))
    #expect(start.duration(to: immediate.now) == .seconds(5))
    try await immediate.sleep(for: .seconds(1))
    let sleeper = Task { try await clock.sleep(until: generic, tolerance: nil) }
    await clock.advance(to: deadline)
    try await sleeper.value
    #expect(clock.now == deadline)
    let _: any Clock<Duration> = clock
    _ = Effect<Int>.run { _ in }.debounce(id: 1, for: .seconds(1), clock: clock)
  }
}
