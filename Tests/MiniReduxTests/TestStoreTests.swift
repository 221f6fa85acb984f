import Dispatch
import Testing

@testable import MiniRedux

/// A feature whose effects the tests control: each action returns one kind of effect, and every
/// `.run` waits at the gate the test opens.
enum Gated {
  struct State: Equatable {
    var count = 0
    var loaded: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case increment
    case incrementTwiceViaSend
    case load
    case loaded(Int)
    case loadPair
    case wait
  }

  static func reducer(_ gate: Gate) -> @MainActor (inout State, Action) -> Effect<Action> {
    { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .incrementTwiceViaSend:
        return .merge(.send(.increment), .send(.increment))
      case .load:
        let value = state.count
        return .run { send in
          await gate.wait()
          await send(.loaded(value))
        }
      case .loaded(let value):
        state.loaded.append(value)
        return .none
      case .loadPair:
        return .run { send in
          await gate.wait()
          await send(.loaded(1))
          await send(.loaded(2))
        }
      case .wait:
        return .run { _ in await gate.wait() }
      }
    }
  }
}

/// Checks that a failure points at this file and at `line`.
///
/// NB: Inside the closure of `#expect(throws:)`, a default `#line` is the line of the `#expect`.
func expectLocation(
  _ failure: TestStoreFailure?, line: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(failure?.fileID == "MiniReduxTests/TestStoreTests.swift", sourceLocation: sourceLocation)
  #expect(failure?.line == UInt(line), sourceLocation: sourceLocation)
  #expect(
    failure?.description.hasPrefix("MiniReduxTests/TestStoreTests.swift:\(line): ") == true,
    sourceLocation: sourceLocation)
}

/// Two screens whose states are both named `State`, as a list and its detail screen are in a stack.
enum List {
  struct State: Equatable { var rows = ["milk"] }
}
enum Detail {
  struct State: Equatable { var title = "milk" }
}

@MainActor
@Suite("TestStore: send asserts the state change (rule 1)", .throwingFailures)
struct TestStoreSendTests {
  @Test("the closure turns the state before the action into the state after it")
  func passes() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    try await store.send(.increment) { $0.count = 1 }
    try await store.send(.increment) { $0.count = 2 }
    #expect(store.state.count == 2)
  }

  @Test("a wrong expectation fails with a line diff of expected against actual and file:line")
  func wrongExpectation() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.increment) { $0.count = 2 }
    }
    expectLocation(failure, line: line)
    #expect(
      failure?.message == """
        send(.increment): the state is not as expected (- expected, + actual):
          Gated.State(
        -   count: 2
        +   count: 1
            loaded: []
          )
        """)
    // The action was reduced all the same.
    #expect(store.state.count == 1)
  }

  @Test("a change with no closure is a failure")
  func changeWithoutClosure() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) { try await store.send(.increment) }
    expectLocation(failure, line: line)
    #expect(failure?.message.contains("the state changed, but no closure asserted it") == true)
    #expect(failure?.message.contains("-   count: 0\n+   count: 1") == true)
  }

  @Test("no closure is fine when the state does not change")
  func noChange() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.wait)
    gate.open()
    try await store.finish()
  }

  @Test("a closure on an action that changed nothing fails: it asserts nothing")
  func assertsNothing() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.incrementTwiceViaSend) { _ in }
    }
    #expect(
      failure?.message.hasPrefix("send(.incrementTwiceViaSend): expected the state to change")
        == true)
    let received = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.increment) { $0.count = 1 }
      try await store.receive(.increment) { $0.count = 2 }
      try await store.send(.wait) { $0.count = 2 }
    }
    #expect(received?.message.hasPrefix("send(.wait): expected the state to change") == true)
    // With exhaustivity off, a closure that holds is enough.
    store.exhaustivity = .off
    try await store.send(.increment) { $0.count = 3 }
    try await store.send(.increment) { _ in }
    gate.open()
    try await store.finish()
  }

  @Test("the diff of nested structs and arrays marks only the lines that differ")
  func nestedDiff() async throws {
    struct Row: Equatable {
      let id: Int
      var title: String
      var isDone = false
    }
    struct Filter: Equatable {
      var query = ""
      var onlyOpen = false
    }
    struct List: Equatable {
      var rows: [Row] = [Row(id: 0, title: "milk"), Row(id: 1, title: "eggs")]
      var filter = Filter()
      var tags: Set<String> = ["b", "a", "c"]
      var scores = ["b": 2, "a": 1]
      var selection: Int?
    }
    let store = TestStore(initialState: List()) { (state: inout List, action: Int) in
      state.rows[action].isDone = true
      state.selection = action
      return .none
    }
    store.timeout = patience
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(1) { $0.rows[0].isDone = true }
    }
    #expect(
      failure?.message == """
        send(1): the state is not as expected (- expected, + actual):
          List(
            rows: [
        -     Row(id: 0, title: "milk", isDone: true)
        -     Row(id: 1, title: "eggs", isDone: false)
        +     Row(id: 0, title: "milk", isDone: false)
        +     Row(id: 1, title: "eggs", isDone: true)
            ]
            filter: Filter(query: "", onlyOpen: false)
            tags: ["a", "b", "c"]
            scores: [(key: "a", value: 1), (key: "b", value: 2)]
        -   selection: nil
        +   selection: 1
          )
        """)
  }

  @Test("the diff names a nested type by the types around it, with no module or function")
  func nestedTypeNames() async throws {
    enum Screen: Equatable {
      case list(List.State)
      case detail(Detail.State)
    }
    struct Stack: Equatable {
      var path: StackState<Screen> = [.list(List.State()), .detail(Detail.State())]
    }
    let store = TestStore(initialState: Stack()) { (state: inout Stack, title: String) in
      state.path[id: 1] = .detail(Detail.State(title: title))
      return .none
    }
    store.timeout = patience
    let failure = await #expect(throws: TestStoreFailure.self) { try await store.send("eggs") }
    #expect(
      failure?.message == """
        send("eggs"): the state changed, but no closure asserted it (- expected, + actual):
          Stack(
            path: StackState<Screen>(
              #0: .list(List.State(rows: ["milk"]))
        -     #1: .detail(Detail.State(title: "milk"))
        +     #1: .detail(Detail.State(title: "eggs"))
            )
          )
        """)
  }

  @Test("the diff of a large state shows the lines that differ, not the whole state")
  func largeDiff() async throws {
    let store = TestStore(initialState: Array(repeating: 0, count: 100_000)) {
      (state: inout [Int], index: Int) in
      state[index] = 1
      return .none
    }
    store.timeout = patience
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(50_000) { $0[50_001] = 1 }
    }
    let lines = failure?.message.split(separator: "\n") ?? []
    #expect(lines.count < 30)
    #expect(lines.contains { $0.contains("unchanged lines") })
    #expect(lines.filter { $0.hasPrefix("-") }.count == 1)
    #expect(lines.filter { $0.hasPrefix("+") }.count == 1)
  }

  @Test("a closure that throws fails the step with its own error")
  func throwingClosure() async throws {
    struct Boom: Error {}
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    await #expect(throws: Boom.self) {
      try await store.send(.increment) { _ in throw Boom() }
    }
  }
}

@MainActor
@Suite("TestStore: received actions must be asserted in order (rule 2)", .throwingFailures)
struct TestStoreReceivedTests {
  @Test("actions from .send effects are received in order, each asserted")
  func sendEffects() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    try await store.send(.incrementTwiceViaSend)
    try await store.receive(.increment) { $0.count = 1 }
    try await store.receive(.increment) { $0.count = 2 }
    try await store.finish()
  }

  @Test("sending while received actions are unasserted fails, lists them, and does not send")
  func unassertedBeforeSend() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    try await store.send(.incrementTwiceViaSend)
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.load)
    }
    expectLocation(failure, line: line)
    #expect(
      failure?.message == """
        send(.load): actions received earlier were not asserted with receive:
          .increment
          .increment
        """)
    #expect(store.state.count == 0, "as of the last step asserted")
    store.skipReceivedActions()
    #expect(store.state.count == 2)
    try await store.finish()
  }

  @Test("a send fails on an action a .run sent before it, on its way to the main actor")
  func runSentBeforeSend() async throws {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    // Given: an effect that sends at once; its action waits for the main actor the test holds.
    let store = TestStore(initialState: 0) { (count: inout Int, load: Bool) in
      guard load else { return (count += 1, .none).1 }
      return .run { send in await send(false) }
    }
    store.timeout = patience
    try await store.send(true)

    // Then: the next send fails, naming it, as TCA's does; a receive still finds it.
    let failure = await #expect(throws: TestStoreFailure.self) { try await store.send(true) }
    #expect(
      failure?.message == "send(true): actions received earlier were not asserted with receive:"
        + "\n  false")
    try await store.receive(false) { $0 = 1 }
    try await store.finish()
  }

  @Test("a test may end right after a send whose .run returned at once, as TCA's")
  func endsAfterRunThatReturned() async throws {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    // The effect's end reaches the main actor after its operation returns: the send waits for it,
    // or the release below fails the test with "effects of true (...) still running".
    let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in .run { _ in } }
    try await store.send(true)
  }

  @Test("a .run effect's actions are received in the order it sent them")
  func runEffectOrder() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.loadPair)
    gate.open()
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.loaded(2))
    }
    #expect(failure?.message == "receive: expected .loaded(2), but received .loaded(1)")
    try await store.receive(.loaded(2)) { $0.loaded = [1, 2] }
    try await store.finish()
  }
}

@MainActor
@Suite("TestStore: receive waits for the next action (rule 3)", .throwingFailures)
struct TestStoreReceiveTests {
  @Test("receive waits until an effect sends the action")
  func waits() async throws {
    // Given: an effect that sends only once the gate opens, which happens while receive waits.
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.load)
    Task { gate.open() }

    // Then
    try await store.receive(.loaded(0)) { $0.loaded = [0] }
    try await store.finish()
  }

  @Test("a timeout no clock can reach waits, without trapping")
  func endlessTimeout() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = .seconds(Int64.max)
    try await store.send(.load)
    // NB: Yields first, off the main actor, so that `receive`'s wait most likely starts its timer
    // before the action.
    Task.detached {
      for _ in 0..<1_000 { await Task.yield() }
      gate.open()
    }
    try await store.receive(.loaded(0)) { $0.loaded = [0] }
    try await store.finish()
  }

  @Test("a different action is a failure that names both")
  func differentAction() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    try await store.send(.incrementTwiceViaSend)
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.loaded(1))
    }
    expectLocation(failure, line: line)
    #expect(failure?.message == "receive: expected .loaded(1), but received .increment")
    store.skipReceivedActions()
  }

  @Test("no action within the timeout is a failure that says so")
  func timeout() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.load)
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.loaded(0), timeout: .milliseconds(20))
    }
    expectLocation(failure, line: line)
    #expect(
      failure?.message
        == "receive: expected .loaded(0), but received nothing within 0.02 seconds")
    gate.open()
    try await store.receive(.loaded(0)) { $0.loaded = [0] }
    try await store.finish()
  }

  @Test("with no effect running, receive fails at once instead of waiting")
  func nothingRunning() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = .seconds(600)
    try await store.send(.increment) { $0.count = 1 }
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.increment)
    }
    #expect(
      failure?.message
        == "receive: expected .increment, but received nothing and no effect is running")
  }

  @Test("a wrong state change on receive shows the diff")
  func receiveDiff() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    try await store.send(.incrementTwiceViaSend)
    try await store.receive(.increment) { $0.count = 1 }
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.increment) { $0.count = 3 }
    }
    #expect(failure?.message.hasPrefix("receive(.increment): the state is not as expected") == true)
    #expect(failure?.message.contains("-   count: 3\n+   count: 2") == true)
  }

  @Test("receive with a closure matches actions that are not Equatable")
  func closure() async throws {
    enum Action: Sendable {
      case start
      case done(@Sendable () -> Int)
    }
    let store = TestStore(initialState: 0) { (state: inout Int, action: Action) in
      switch action {
      case .start: return .send(.done({ 7 }))
      case .done(let value):
        state = value()
        return .none
      }
    }
    store.timeout = patience
    try await store.send(.start)
    try await store.receive({ if case .done = $0 { true } else { false } }) { $0 = 7 }
    try await store.finish()
  }
}

@MainActor
@Suite("TestStore: finish accounts for every effect (rule 4)", .throwingFailures)
struct TestStoreFinishTests {
  @Test("finish waits for every effect started through the store")
  func waits() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.wait)
    try await store.send(.wait)
    Task { gate.open() }
    // Then: finish() returns, which it does not while the effects are running.
    try await store.finish()
  }

  @Test("effects still running fail finish, listed with the action that started them")
  func stillRunning() async throws {
    // Given: an effect that never ends by itself, and one that has ended.
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.incrementTwiceViaSend)
    try await store.receive(.increment) { $0.count = 1 }
    try await store.receive(.increment) { $0.count = 2 }
    let line = #line + 1
    let task = try await store.send(.wait)

    // When
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.finish(timeout: .milliseconds(20))
    }

    // Then: the failure lists it, and it was cancelled.
    #expect(
      failure?.message == """
        finish(): not accounted for:
          effects of .wait (sent at MiniReduxTests/TestStoreTests.swift:\(line)) still running \
        after 0.02 seconds
          End each: cancel one that runs until cancelled, advance a TestClock one sleeps on
        """)
    #expect(task.isCancelled)
    gate.open()
    await finished(task)
  }

  @Test("received actions never asserted fail finish, listed")
  func unasserted() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.loadPair)
    gate.open()
    try await store.receive(.loaded(1)) { $0.loaded = [1] }
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.finish()
    }
    expectLocation(failure, line: line)
    #expect(
      failure?.message == """
        finish(): not accounted for:
          .loaded(2) received but not asserted
        """)
  }

  @Test("the initial action's effects and actions are accounted for too")
  func initialAction() async throws {
    let gate = Gate()
    let store = TestStore(
      initialState: Gated.State(), initialAction: .load, Gated.reducer(gate))
    store.timeout = patience
    gate.open()
    try await store.receive(.loaded(0)) { $0.loaded = [0] }
    try await store.finish()
  }

  @Test("a cancelled test stops waiting in receive at once")
  func cancelledReceive() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    try await store.send(.load)

    // When the test's task is cancelled while receive waits for an action that cannot come yet
    let waiting = Task { try await store.receive(.loaded(0), timeout: .seconds(30)) }
    waiting.cancel()

    // Then it ends with CancellationError, not a timeout 30 seconds later.
    let result = await waiting.result
    #expect(throws: CancellationError.self) { try result.get() }
    gate.open()
    try await store.receive(.loaded(0)) { $0.loaded = [0] }
    try await store.finish()
  }

  @Test("a store released without finish writes what is unaccounted for to standard error")
  func releasedWithoutFinish() async throws {
    let gate = Gate()
    let reports = Recorder<String>()
    try await miniReduxReporter.withValue(reporter { reports.append($0) }) {
      // Given: a store whose finish() already reported its effect (still winding down), then
      // one with an effect running and actions not received, released without finish().
      do {
        let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
        store.timeout = patience
        try await store.send(.wait)
        await #expect(throws: TestStoreFailure.self) {
          try await store.finish(timeout: .milliseconds(1))
        }
      }
      do {
        // A send that failed for unasserted actions has reported them: they are not reported
        // again when the store goes.
        let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
        store.timeout = patience
        try await store.send(.incrementTwiceViaSend)
        await #expect(throws: TestStoreFailure.self) { try await store.send(.increment) }
      }
      do {
        let store = TestStore(
          initialState: Gated.State(), fileID: "App/FeatureTests.swift", line: 3,
          Gated.reducer(gate))
        store.timeout = patience
        try await store.send(.wait, fileID: "App/FeatureTests.swift", line: 7)
        try await store.send(.incrementTwiceViaSend)
      }
      // Then: one report, for the second store (the first store's check ran before it).
      await eventually { !reports.values.isEmpty }
    }
    #expect(
      reports.values == [
        """
        MiniRedux: the TestStore created at App/FeatureTests.swift:3 was released with this not \
        accounted for; end the test with `try await store.finish()`. The test process will exit \
        with status 1.
          effects of .wait (sent at App/FeatureTests.swift:7) still running
          .increment received but not asserted
          .increment received but not asserted
        """
      ])
    gate.open()
  }
}

@MainActor
@Suite("TestStore: exhaustivity off (rule 5)", .throwingFailures)
struct TestStoreNonExhaustiveTests {
  @Test("assertions must hold against the actual state; changes not mentioned are allowed")
  func partialAssertions() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.increment)
    try await store.send(.increment) { $0.count = 2 }
    let line = #line + 1
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.increment) { $0.count = 4 }
    }
    expectLocation(failure, line: line)
    #expect(
      failure?.message.hasPrefix(
        "send(.increment): the state does not hold what the closure asserts") == true)
    #expect(failure?.message.contains("-   count: 4\n+   count: 3") == true)
  }

  @Test("receive skips actions until one matches; send skips unasserted ones")
  func skips() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.incrementTwiceViaSend)
    try await store.send(.loadPair)
    gate.open()
    try await store.receive(.loaded(2)) { $0.loaded = [1, 2] }
    try await store.finish()
  }

  @Test("receive with no match lists what it skipped")
  func noMatch() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.incrementTwiceViaSend)
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.loaded(1))
    }
    #expect(
      failure?.message == """
        receive: expected .loaded(1), but received only .increment, .increment and no effect \
        is running
        """)
  }

  @Test("finish does not fail on unasserted actions, but still on running effects")
  func finish() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    store.timeout = patience
    store.exhaustivity = .off
    try await store.send(.incrementTwiceViaSend)
    try await store.finish()

    try await store.send(.wait)
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.finish(timeout: .milliseconds(20))
    }
    #expect(failure?.message.contains("effects of .wait") == true)
    gate.open()
  }
}

@MainActor
@Suite("TestStore: time, composition and isolation (rules 6-8)", .throwingFailures)
struct TestStoreFeatureTests {
  // Rule 6 (time is the test's: a debounce on a manual clock) is tested by
  // DocSamples.searchWithManualClock, which runs TestingAFeature.md's sample of it.

  @Test("a parent is tested through its children's actions (scope, Effect.map, delegate)")
  func composition() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Todos.State(), Todos.reducer(gate))
    store.timeout = patience
    try await store.send(.add("milk")) {
      $0.rows = [Todos.Row(id: 0, title: "milk")]
      $0.nextID = 1
    }
    try await store.send(.add("eggs")) {
      $0.rows.append(Todos.Row(id: 1, title: "eggs"))
      $0.nextID = 2
    }
    try await store.send(.row(id: 0, .save))
    try await store.send(.row(id: 1, .save))

    // When: the first row asks to be deleted, and then the saves come back.
    try await store.send(.row(id: 0, .deleteTapped))
    try await store.receive(.row(id: 0, .delegate(.delete))) { $0.rows.removeFirst() }
    gate.open()

    // Then: only the remaining row's save lands.
    try await store.receive(.row(id: 1, .saved)) { $0.rows[0].isSaved = true }
    try await store.finish()
  }

  @Test("a test store's effects run on its own executor, as do those of a store its reducer makes")
  func ownExecutor() async throws {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    // Given: effects that record the executor they run on, by name; one action makes a store.
    let ranOn = Locked([String: ObjectIdentifier]())
    @Sendable func record(_ name: String) {
      let executor = DispatchQueue.getSpecific(key: TestExecutor.key)?()
      ranOn.withLock { $0[name] = executor.map(ObjectIdentifier.init) }
    }
    var made: (store: Store<Int, Bool>, task: StoreTask)?
    let reduce: Reducer<Int, String> = { _, name in
      if name == "make" {
        let store = Store<Int, Bool>(initialState: 0) { _, _ in .run { _ in record("made") } }
        made = (store, store.send(true))
      }
      return .run { _ in record(name) }
    }
    let (first, second) = (TestStore(initialState: 0, reduce), TestStore(initialState: 0, reduce))

    // When: each test store runs an effect, and the first makes a store that runs one.
    try await first.send("a")
    try await first.send("make")
    try await second.send("b")
    await made?.task.finish()
    try await first.finish()
    try await second.finish()

    // Then: the first's effects, and the made store's, ran on the first's executor; the second's
    // on its own.
    let executor = { (store: TestStore<Int, String>) in
      (Mirror(reflecting: store).descendant("executor") as? TestExecutor).map(ObjectIdentifier.init)
    }
    let ran = ranOn.current
    #expect(ran["a"] != nil && ran["a"] == executor(first))
    #expect(ran["make"] == ran["a"] && ran["made"] == ran["a"])
    #expect(ran["b"] != nil && ran["b"] == executor(second) && ran["b"] != ran["a"])
  }

  #if compiler(>=6.2)
    /// An action whose Equatable conformance is isolated to the main actor, as an
    /// `enum Action: Equatable` declared in a `-default-isolation MainActor` target gets.
    enum IsolatedAction: Sendable {
      case ping(Int)
    }

    @Test("an Action whose Equatable conformance is main-actor isolated can be received")
    func isolatedConformance() async throws {
      let store = TestStore(initialState: 0) { (state: inout Int, action: IsolatedAction) in
        switch action {
        case .ping(let value):
          state = value
          return value < 2 ? .send(.ping(value + 1)) : .none
        }
      }
      store.timeout = patience
      try await store.send(.ping(1)) { $0 = 1 }
      let failure = await #expect(throws: TestStoreFailure.self) {
        try await store.receive(.ping(3))
      }
      #expect(failure?.message == "receive: expected .ping(3), but received .ping(2)")
      try await store.send(.ping(2))
      try await store.finish()
    }
  #endif

  @Test("receive(_:) with an Action that is not Equatable says to use a closure")
  func notEquatable() async throws {
    typealias Action = Tapping.Action
    let store = TestStore(initialState: 0) { (_: inout Int, action: Action) in
      guard case .tap(0) = action else { return .none }
      return .send(.tap(1))
    }
    store.timeout = patience
    try await store.send(.tap(0))
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.receive(.tap(1))
    }
    #expect(failure?.message.contains("MiniReduxTests.Tapping.Action is not Equatable") == true)
    store.skipReceivedActions()
  }

  @Test("a send whose context does not call reduce fails at once, with the context's report")
  func contextThatSkipsReduce() async throws {
    let store = TestStore(initialState: 0, { (_: inout Int, _: Bool) in .none }, context: { _ in })
    let failure = await #expect(throws: TestStoreFailure.self) { try await store.send(true) }
    #expect(
      failure?.message
        == "send(true): MiniRedux: a store's context called reduce 0 times; call it once.")
    try await store.finish()
  }
}

#if compiler(>=6.2)
  extension TestStoreFeatureTests.IsolatedAction: @MainActor Equatable {}
#endif

/// A search whose response carries a `Result` with `any Error`: its actions are not `Equatable`.
enum ResultSearch {
  struct Failed: Error {}
  enum Action: Sendable {
    case search(String)
    case searchResponse(Result<[String], any Error>)
    case cleared(Result<[String], any Error>)
  }
  static func reduce(_ results: inout [String], _ action: Action) -> Effect<Action> {
    switch action {
    case .search(let query):
      return .run { send in
        await send(.searchResponse(query.isEmpty ? .failure(Failed()) : .success([query])))
      }
    case .searchResponse(let result):
      results = (try? result.get()) ?? []
      return .none
    case .cleared:
      return .none
    }
  }
}

@MainActor
@Suite("TestStore: receive by case, for actions that are not Equatable", .throwingFailures)
struct TestStoreReceiveCaseTests {
  @Test("receive names the case; where checks the payload")
  func receiveByCase() async throws {
    let store = TestStore(initialState: [String](), ResultSearch.reduce)
    store.timeout = patience
    try await store.send(.search("swift"))
    try await store.receive(ResultSearch.Action.searchResponse) { $0 = ["swift"] }
    try await store.send(.search(""))
    try await store.receive(ResultSearch.Action.searchResponse, where: { (try? $0.get()) == nil }) {
      $0 = []
    }
    try await store.finish()
  }

  @Test("receive by case fails on another case with the same payload, or a payload check")
  func receiveByCaseFails() async throws {
    let store = TestStore(initialState: [String](), ResultSearch.reduce)
    store.timeout = patience
    try await store.send(.search("swift"))
    await #expect {
      try await store.receive(ResultSearch.Action.cleared) { $0 = ["swift"] }
    } throws: { error in
      "\(error)".contains("expected the case of Action that carries a Result<Array<String>, Error>")
    }
    try await store.send(.search("swift"))
    await #expect {
      try await store.receive(ResultSearch.Action.searchResponse, where: { _ in false })
    } throws: { error in "\(error)".contains("but received .searchResponse") }
    try await store.finish()
  }
}

@MainActor
@Suite("TestStore: Swift Testing records a failure at the failing step")
struct TestStoreRecordingTests {
  /// Whether `issue` is the test store's failure at `line` of this file, saying `message`.
  nonisolated static func isFailure(_ issue: Issue, at line: Int, saying message: String) -> Bool {
    issue.sourceLocation?.fileID == "MiniReduxTests/TestStoreTests.swift"
      && issue.sourceLocation?.line == line
      && issue.comments.contains { $0.rawValue.contains(message) }
  }

  @Test("a wrong state is recorded at the send, which returns instead of throwing")
  func wrongStateIsRecordedAtTheSend() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    let line = #line + 2
    try await withKnownIssue {
      try await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      Self.isFailure(issue, at: line, saying: "send(.increment): the state is not as expected")
    }
    // The test goes on from the state the store is in.
    try await store.send(.increment) { $0.count = 2 }
    try await store.finish()
  }

  @Test("a receive that gets nothing is recorded at the receive")
  func receiveOfNothingIsRecordedAtTheReceive() async throws {
    let store = TestStore(initialState: Gated.State(), Gated.reducer(Gate()))
    let line = #line + 2
    try await withKnownIssue {
      try await store.receive(.increment)
    } matching: { issue in
      Self.isFailure(issue, at: line, saying: "received nothing and no effect is running")
    }
  }

  @Test("outside the test's task, no framework records, so a step would throw")
  func nothingRecordsOutsideTheTest() async {
    let recorded = await Task.detached {
      recordTestIssue("MiniRedux: nowhere", at: (#fileID, #filePath, #line, #column))
    }.value
    #expect(!recorded)
  }

  @Test("a TestClock whose timer never stops fails the test at the line that made the clock")
  func endlessTimerIsRecordedWhereTheClockWasMade() async throws {
    let line = #line + 1
    let clock = TestClock()
    clock.patience = .milliseconds(100)
    let store = TestStore(initialState: Ticking.State(), Ticking.reducer(clock: clock))
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.start)
    await withKnownIssue {
      await clock.run()
    } matching: { issue in
      Self.isFailure(issue, at: line, saying: "TestClock.run() moved time for 0.1 seconds")
    }
    try await store.send(.stop)
    try await store.finish()
  }

  @Test("a store released with work left fails the test at the line that made it")
  func releasedStoreIsRecordedWhereItWasMade() async throws {
    let gate = Gate()
    defer { gate.open() }
    let line = #line + 3
    try await withKnownIssue {
      do {
        let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
        try await store.send(.wait)
      }
    } matching: { issue in
      Self.isFailure(issue, at: line, saying: "was released with this not accounted for")
        && !issue.comments.contains { $0.rawValue.contains("exit with status 1") }
    }
  }
}

/// A feature whose action is not `Equatable`.
enum Tapping { enum Action: Sendable { case tap(Int) } }
