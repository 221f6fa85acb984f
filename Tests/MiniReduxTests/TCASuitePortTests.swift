import Foundation
import Observation
import Testing

@testable import MiniRedux

// Ports of The Composable Architecture's tests (pointfreeco/swift-composable-architecture,
// Tests/ComposableArchitectureTests) and of habits of TCA users' tests, that TCAPortTests.swift,
// TCAReducerPortTests.swift and TCANavigationTests.swift do not cover: rows that move while their
// effects run, store publishers, stacks made in effects, cancellation and clocks, nested enum
// destinations, timers in task groups. `withKnownIssue("DOCUMENTED: ...")` marks a TCA
// expectation MiniRedux's docs say it does not meet; `withKnownIssue("AS IN TCA: ...")` a step
// that fails in TCA too.

// MARK: - Rows that move while their effects run (TCA's IdentifiedArray idioms)

@MainActor @Suite struct TCASuitePortRowTests {
  struct Row: Equatable, Identifiable {
    var id: String
    var count = 0
  }
  enum RowAction: Equatable, Sendable { case start, tick, close }
  enum Action: Equatable, Sendable {
    case row(id: String, RowAction)
    case reverse, sort, replace
  }
  static func reducer(_ gates: [String: Gate]) -> Reduce<[Row], Action> {
    Reduce<[Row], Action> { rows, action in
      switch action {
      case .row: break
      case .reverse: rows.reverse()
      case .sort: rows.sort { $0.id < $1.id }
      case .replace: rows = rows.map { Row(id: $0.id, count: $0.count) }
      }
      return .none
    }
    .forEach(\.self, action: Action.row) { (row: inout Row, action: RowAction) in
      switch action {
      case .start:
        let gate = gates[row.id]!
        return .run { send in
          await gate.wait()
          await send(.tick)
        }
      case .tick:
        row.count += 1
        return .none
      case .close:
        let gate = gates[row.id]!
        return .run { send in
          await gate.wait()
          await send.dismiss()
        }
      }
    }
  }

  @Test("a row's effect answers its row after the rows were reversed, sorted and replaced")
  func movedRowsGetTheirActions() async throws {
    let gates = ["a": Gate(), "b": Gate(), "c": Gate()]
    let initial = ["c", "a", "b"].map { Row(id: $0) }
    let store = TestStore(initialState: initial, Self.reducer(gates))
    store.timeout = patience
    try await store.send(.row(id: "a", .start))
    try await store.send(.row(id: "b", .start))
    try await store.send(.row(id: "c", .start))
    try await store.send(.reverse) { $0.reverse() }
    gates["a"]!.open()
    try await store.receive(.row(id: "a", .tick)) { $0[1].count = 1 }
    try await store.send(.sort) { $0.sort { $0.id < $1.id } }
    gates["c"]!.open()
    try await store.receive(.row(id: "c", .tick)) { $0[2].count = 1 }
    try await store.send(.replace)
    gates["b"]!.open()
    try await store.receive(.row(id: "b", .tick)) { $0[1].count = 1 }
    try await store.finish()
  }

  @Test("a row that dismisses itself after the rows moved removes itself, not its old place")
  func movedRowDismissesItself() async throws {
    let gates = ["a": Gate(), "b": Gate(), "c": Gate()]
    let store = TestStore(initialState: ["a", "b", "c"].map { Row(id: $0) }, Self.reducer(gates))
    store.timeout = patience
    try await store.send(.row(id: "a", .close))
    try await store.send(.reverse) { $0.reverse() }
    gates["a"]!.open()
    try await store.receiveDismiss { $0 = ["c", "b"].map { Row(id: $0) } }
    try await store.finish()
  }

  enum Pending: Equatable, Sendable { case start, response(Int) }

  @Test("a non-exhaustive receive skips an earlier action of the same case (TCA receive)")
  func receiveSkipsSameCase() async throws {
    let store = TestStore(initialState: 0) { (state: inout Int, action: Pending) in
      switch action {
      case .start:
        return .run { send in
          await send(.response(1))
          await send(.response(2))
        }
      case .response(let value):
        state += value
        return .none
      }
    }
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.start)
    try await store.receive(.response(2)) { $0 = 3 }
    try await store.finish()
  }
}

// MARK: - Store publishers (StoreTests), stacks made in effects (StackReducerTests)

@MainActor @Suite struct TCASuitePortStreamTests {
  @Test("a store's states give the state at once (testPublisherAsyncSequence)")
  func publisherAsyncSequence() async {
    let store = Store<Int, Bool>(initialState: 7) { _, _ in .none }
    var first: Int?
    for await state in store.states {
      first = state
      break
    }
    #expect(first == 7)
  }

  @Test("a subscription does not keep its store (testSubscriptionOwnsStorePublisher)")
  func subscriptionOwnsStore() {
    // TCA: the publisher's subscription keeps the store until cancelled. MiniRedux: a listener
    // lives until cancelled or until the root store is released (Guarantees, Observing).
    var store: Store<Int, Bool>? = Store(initialState: 0) { _, _ in .none }
    weak let weakStore = store
    let subscription = store!.subscribe { _ in }
    store = nil
    withKnownIssue("DOCUMENTED: a subscription does not keep its root store alive") {
      #expect(weakStore != nil)
    }
    subscription.cancel()
    #expect(weakStore == nil)
  }

  struct Screen: Equatable { var name: String }
  struct Nav: Equatable { var path = StackState<Screen>() }
  enum NavAction: Sendable {
    case load, loaded(StackState<Screen>), screen(id: Int, Never)
  }

  @Test("a stack made in an effect takes the test store's ids, 0 and 1 (a TCA idiom)")
  func stackMadeInEffect() async throws {
    let store = TestStore(initialState: Nav()) { (state: inout Nav, action: NavAction) in
      switch action {
      case .load:
        return .run { send in
          await send(.loaded(StackState([Screen(name: "a"), Screen(name: "b")])))
        }
      case .loaded(let path):
        state.path = path
        return .none
      case .screen: return .none
      }
    }
    store.timeout = patience
    try await store.send(.load)
    // As in TCA, whose receive copies the generator as it is once the effect drew from it: a stack
    // made in the closure takes the ids after those the effect took (#2, #3, not #0, #1).
    await withKnownIssue("AS IN TCA: the closure's stack takes ids after the effect's") {
      try await store.receive({ if case .loaded = $0 { true } else { false } }) {
        $0.path = StackState([Screen(name: "a"), Screen(name: "b")])
      }
    }
    #expect(store.state.path.ids == [0, 1])
    try await store.finish()
  }
}

// MARK: - Cancellation and clocks, as TCA users write them

/// A main-actor dependency: an effect that calls it hops to the main actor.
@MainActor final class MainActorCounter {
  var count = 0
  func increment() { count += 1 }
}

@MainActor @Suite struct TCASuitePortClockTests {
  enum Action: Equatable, Sendable { case start, value(Int) }

  @Test("a released store's task reads cancelled once its effect ended (StoreLifetimeTests)")
  func releasedStoreTaskIsCancelled() async {
    let task: StoreTask
    do {
      let store = Store<Int, Action>(initialState: 0) { _, _ in .run { _ in await untilCancelled() }
      }
      task = store.send(.start)
    }
    await task.finish()
    #expect(task.isCancelled)
  }

  @Test("a cancelled effect whose operation ignores it delivers nothing (TestStoreTask.cancel)")
  func cancelledEffectIgnoringCancellation() async throws {
    let gate = Gate()
    let store = TestStore(initialState: 0) { (state: inout Int, action: Action) in
      switch action {
      case .start:
        return .run { send in
          await gate.wait()
          await send(.value(1))
        }
      case .value(let value):
        state = value
        return .none
      }
    }
    store.timeout = patience
    let task = try await store.send(.start)
    task.cancel()
    // TCA's `await task.cancel()` waits for the operation to return; MiniRedux's `finish()` does:
    // an operation that ignores cancellation must return before the test ends.
    gate.open()
    await task.finish()
    try await store.finish()
    #expect(store.state == 0, "a cancelled effect delivers nothing")
  }

  @Test("a debounce on an immediate clock fires at once (EffectDebounceTests, ImmediateClock)")
  func debounceImmediateClock() async throws {
    enum CancelID { case debounce }
    let clock = ImmediateTestClock()
    let store = TestStore(initialState: 0) { (state: inout Int, action: Action) in
      switch action {
      case .start:
        return .send(.value(1)).debounce(id: CancelID.debounce, for: .seconds(1), clock: clock)
      case .value(let value):
        state = value
        return .none
      }
    }
    store.timeout = patience
    try await store.send(.start)
    try await store.receive(.value(1)) { $0 = 1 }
    try await store.finish()
  }

  /// A feature whose effect waits for a value from a stream the test controls (a gate), hops to
  /// the main actor (a main-actor dependency), then sleeps a second on the clock and answers.
  static func gated(_ gate: Gate, _ clock: TestClock, sleepFirst: Bool) -> Reducer<Int, Action> {
    let hops = MainActorCounter()
    return { state, action in
      switch action {
      case .start:
        return .run { send in
          if sleepFirst { try await clock.sleep(for: .zero) }
          await gate.wait()
          await hops.increment()
          try await clock.sleep(for: .seconds(1))
          await send(.value(1))
        }
      case .value(let value):
        state = value
        return .none
      }
    }
  }

  @Test("advance waits for an effect on its way to its first sleep, once a gate opened (TCA)")
  func firstSleepAfterGate() async throws {
    // TCA's tests yield to a dependency's stream, then advance the clock: with the main serial
    // executor, the effect reaches its sleep before time moves. MiniRedux's TestClock learns of a
    // test store at its first sleep on it (TestingAFeature), so this advance does not wait.
    let (gate, clock) = (Gate(), TestClock())
    let store = TestStore(initialState: 0, Self.gated(gate, clock, sleepFirst: false))
    store.timeout = patience
    let task = try await store.send(.start)
    gate.open()
    await clock.advance(by: .seconds(1))
    await withKnownIssue(
      "DOCUMENTED: advance does not wait for a test store none of whose effects slept on it yet"
    ) {
      try await store.receive(.value(1), timeout: .milliseconds(500)) { $0 = 1 }
    }
    task.cancel()
    try await store.finish()
  }

  @Test("the same, once an effect of the store slept on the clock before: advance waits for it")
  func firstSleepAfterGateKnownStore() async throws {
    let (gate, clock) = (Gate(), TestClock())
    let store = TestStore(initialState: 0, Self.gated(gate, clock, sleepFirst: true))
    store.timeout = patience
    try await store.send(.start)
    await clock.advance()
    gate.open()
    await clock.advance(by: .seconds(1))
    try await store.receive(.value(1)) { $0 = 1 }
    try await store.finish()
  }
}

// MARK: - EffectCancellationIsolationTests, NestedEnumFeatureTests

@MainActor @Suite struct TCASuitePortIsolationTests {
  struct State: Equatable { var value = 0 }
  enum Action: Equatable, Sendable { case response(Int), start, stop }
  enum CancelID { case longLiving }
  static func reducer(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .response(let value):
      state.value = value
      return .none
    case .start:
      return .run { send in
        await send(.response(42))
        await untilCancelled()
      }
      .cancellable(id: CancelID.longLiving, cancelInFlight: true)
    case .stop:
      return .cancel(id: CancelID.longLiving)
    }
  }

  @Test(
    "two test stores with the same id, in parallel, ended by .stop (testIsolation1, 2)",
    arguments: [1, 2])
  func isolation(_: Int) async throws {
    // As in TCA, the test ends after `.stop`, with no finish: the cancelled effect is accounted for.
    let store = TestStore(initialState: State(), Self.reducer)
    store.timeout = patience
    try await store.send(.start)
    try await store.receive(.response(42)) { $0.value = 42 }
    try await store.send(.stop)
  }

  // NestedEnumFeatureTests: a destination enum whose case is an enum whose case is a feature,
  // the two cases named alike, as TCA's `destination.inner.leaf`.
  enum Leaf {
    struct State: Equatable { var ticks = 0 }
    enum Action: Equatable, Sendable { case start, tick, close }
    static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
      { state, action in
        switch action {
        case .start:
          return .run { send in
            while true {
              try await clock.sleep(for: .seconds(1))
              await send(.tick)
            }
          }
        case .tick:
          state.ticks += 1
          return .none
        case .close:
          return .run { send in await send.dismiss() }
        }
      }
    }
  }
  enum Inner {
    enum State: Equatable { case leaf(Leaf.State) }
    enum Action: Equatable, Sendable { case leaf(Leaf.Action) }
  }
  enum Outer {
    enum State: Equatable { case leaf(Inner.State) }
    enum Action: Equatable, Sendable { case leaf(Inner.Action) }
  }
  struct Parent: Equatable { var destination: Outer.State? }
  enum ParentAction: Equatable, Sendable { case destination(Outer.Action), present, dismiss }
  static func parent(_ clock: TestClock) -> Reduce<Parent, ParentAction> {
    let inner = Reduce<Inner.State, Inner.Action> { _, _ in .none }
      .scope(Inner.State.leaf, action: Inner.Action.leaf, child: Leaf.reducer(clock))
    let outer = Reduce<Outer.State, Outer.Action> { _, _ in .none }
      .scope(Outer.State.leaf, action: Outer.Action.leaf, child: inner)
    return Reduce<Parent, ParentAction> { state, action in
      switch action {
      case .destination: break
      case .present: state.destination = .leaf(.leaf(Leaf.State()))
      case .dismiss: state.destination = nil
      }
      return .none
    }
    .ifLet(\.destination, action: ParentAction.destination, child: outer)
  }

  @Test("a leaf two enums deep ticks, then ends when the parent dismisses it (NestedEnumFeature)")
  func nestedEnumLeafParentDismisses() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Parent(), Self.parent(clock))
    store.timeout = patience
    try await store.send(.present) { $0.destination = .leaf(.leaf(Leaf.State())) }
    try await store.send(.destination(.leaf(.leaf(.start))))
    await clock.advance(by: .seconds(1))
    try await store.receive(.destination(.leaf(.leaf(.tick)))) {
      $0.destination = .leaf(.leaf(Leaf.State(ticks: 1)))
    }
    try await store.send(.dismiss) { $0.destination = nil }
    await clock.advance(by: .seconds(3))
    try await store.finish()
  }

  @Test("a leaf two enums deep dismisses itself: the destination closes, its timer ends")
  func nestedEnumLeafDismissesItself() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Parent(), Self.parent(clock))
    store.timeout = patience
    try await store.send(.present) { $0.destination = .leaf(.leaf(Leaf.State())) }
    try await store.send(.destination(.leaf(.leaf(.start))))
    try await store.send(.destination(.leaf(.leaf(.close))))
    try await store.receiveDismiss { $0.destination = nil }
    await clock.advance(by: .seconds(3))
    try await store.finish()
  }
}

// MARK: - Effects that sleep in child tasks (TCA's timers in task groups)

@MainActor @Suite struct TCASuitePortChildTaskTests {
  enum Action: Equatable, Sendable { case start, tick(Int) }

  @Test("child tasks of a task group and an async let sleep on the clock; advance wakes them")
  func childTasksSleep() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) { (state: inout [Int], action: Action) in
      switch action {
      case .start:
        return .run { send in
          async let third: Void = {
            try? await clock.sleep(for: .seconds(3))
            await send(.tick(3))
          }()
          await withTaskGroup(of: Void.self) { group in
            for second in 1...2 {
              group.addTask {
                try? await clock.sleep(for: .seconds(second))
                await send(.tick(second))
              }
            }
          }
          await third
        }
      case .tick(let second):
        state.append(second)
        return .none
      }
    }
    store.timeout = patience
    try await store.send(.start)
    await clock.advance(by: .seconds(1))
    try await store.receive(.tick(1)) { $0 = [1] }
    await clock.advance(by: .seconds(1))
    try await store.receive(.tick(2)) { $0 = [1, 2] }
    await clock.advance(by: .seconds(1))
    try await store.receive(.tick(3)) { $0 = [1, 2, 3] }
    try await store.finish()
  }
}
