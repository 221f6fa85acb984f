import Foundation
import Observation
import Testing

@testable import MiniRedux

// Ports of The Composable Architecture's tests (pointfreeco/swift-composable-architecture,
// Tests/ComposableArchitectureTests) that TCAPortTests.swift, TCAReducerPortTests.swift and
// TCANavigationTests.swift do not port, for features MiniRedux has. Each test names the TCA file
// and test. `withKnownIssue("TCA expects a failure ...")` marks a step TCA's test expects to fail
// (XCTExpectFailure); `withKnownIssue("DOCUMENTED: ...")` a TCA expectation MiniRedux's docs say
// it does not meet; `withKnownIssue("AS IN TCA: ...")` a step that fails in TCA too.

// MARK: - EffectCancellationTests, EffectRunTests, EffectTests

@MainActor @Suite struct TCASuitePortEffectTests {
  enum Action: Equatable, Sendable {
    case start, stop, value(Int), cancelMe, response, responseB
  }
  enum CancelID { case effect }

  static func numbers(_ effect: @escaping @MainActor () -> Effect<Action>) -> Reducer<
    [Int], Action
  > {
    { state, action in
      switch action {
      case .start: return effect()
      case .stop, .cancelMe: return .cancel(id: CancelID.effect)
      case .value(let value):
        state.append(value)
        return .none
      case .response, .responseB: return .none
      }
    }
  }

  @Test("a delayed effect cancelled before its time delivers nothing (testCancellationAfterDelay)")
  func cancellationAfterDelay() async throws {
    // EffectCancellationTests.testCancellationAfterDelay_WithTestScheduler.
    let clock = TestClock()
    let store = TestStore(
      initialState: [],
      Self.numbers {
        .run { send in
          try await clock.sleep(for: .seconds(2))
          await send(.value(1))
        }
        .cancellable(id: CancelID.effect)
      })
    store.timeout = patience
    try await store.send(.start)
    await clock.advance(by: .seconds(1))
    try await store.send(.stop)
    await clock.run()
    #expect(store.state == [])
    try await store.finish()
  }

  @Test("a stream that completed, then cancelled, keeps what it sent (testCompleteBeforeCancel)")
  func completeBeforeCancellation() async throws {
    // EffectCancellationTests.testCompleteBeforeCancellation.
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let store = TestStore(
      initialState: [],
      Self.numbers {
        .run { send in
          for await value in stream { await send(.value(value)) }
        }
        .cancellable(id: CancelID.effect)
      })
    store.timeout = patience
    try await store.send(.start)
    continuation.yield(1)
    try await store.receive(.value(1)) { $0 = [1] }
    continuation.finish()
    try await store.finish()
    try await store.send(.stop)
    #expect(store.state == [1])
    try await store.finish()
  }

  @Test("an id is forgotten once its effect completes (testCancellablesCleanUp_OnComplete)")
  func cancellablesCleanUpOnComplete() async {
    // Internal_EffectCancellationTests.testCancellablesCleanUp_OnComplete.
    let id = UUID()
    let store = Store(initialState: [Int](), Self.numbers { .send(.value(1)).cancellable(id: id) })
    await store.send(.start).finish()
    #expect(store.state == [1])
    #expect(store.snapshot.ids == 0 && store.snapshot.effects == 0)
  }

  @Test("an id is forgotten once its effect is cancelled (testCancellablesCleanUp_OnCancel)")
  func cancellablesCleanUpOnCancel() async {
    // Internal_EffectCancellationTests.testCancellablesCleanUp_OnCancel.
    let clock = TestClock()
    let store = Store(
      initialState: [Int](),
      Self.numbers {
        .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.value(1))
        }
        .cancellable(id: CancelID.effect)
      })
    let task = store.send(.start)
    #expect(store.snapshot.ids == 1)
    store.send(.stop)
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state == [])
    #expect(store.snapshot.ids == 0 && store.snapshot.effects == 0)
  }

  enum Many: Equatable, Sendable {
    case start, value(Int), cancel(Int)
  }

  @Test("1,000 effects under 10 ids, cancelled by their siblings, leave no id (ConcurrentCancels)")
  func concurrentCancels() async {
    // Internal_EffectCancellationTests.testConcurrentCancels, with delays that vary
    // deterministically, and TCA's `Task.cancel(id:)` in an effect an action returning `.cancel`.
    let clock = ImmediateTestClock()
    let ids = (0..<10).map { _ in UUID() }
    let store = Store(initialState: [Int]()) { (state: inout [Int], action: Many) -> Effect<Many> in
      switch action {
      case .start:
        return .merge(
          (1...1_000).map { index -> Effect<Many> in
            let id = ids[index % 10]
            return .merge(
              .run { send in
                try await clock.sleep(for: .milliseconds(index % 7 + 1))
                await send(.value(index))
              }
              .cancellable(id: id),
              .run { send in
                try await clock.sleep(for: .milliseconds(index % 5 + 1))
                await send(.cancel(index % 10))
              })
          })
      case .value(let value):
        state.append(value)
        return .none
      case .cancel(let index):
        return .cancel(id: ids[index])
      }
    }
    await store.send(.start).finish()
    #expect(store.snapshot.ids == 0 && store.snapshot.effects == 0)
  }

  @Test("ids of two empty struct types are two ids (testCancelIDHash)")
  func cancelIDHash() async throws {
    // Internal_EffectCancellationTests.testCancelIDHash: TCA checks its `_CancelID`s differ; here,
    // cancelling one does not cancel an effect under the other.
    struct CancelID1: Hashable {}
    struct CancelID2: Hashable {}
    let gate = Gate()
    let store = TestStore(initialState: [Int]()) { (state: inout [Int], action: Action) in
      switch action {
      case .start:
        return .run { send in
          await gate.wait()
          await send(.value(1))
        }
        .cancellable(id: CancelID1())
      case .stop: return .cancel(id: CancelID2())
      case .value(let value):
        state.append(value)
        return .none
      default: return .none
      }
    }
    store.timeout = patience
    try await store.send(.start)
    try await store.send(.stop)
    gate.open()
    try await store.receive(.value(1)) { $0 = [1] }
    try await store.finish()
  }

  @Test("a .run cancelled by id before it sends sends nothing (EffectRunTests.testRunCancellation)")
  func runCancellation() async throws {
    // TCA's operation calls `Task.cancel(id:)`, which MiniRedux does not have: it sends an action
    // whose reducer returns `.cancel(id:)`.
    let store = TestStore(
      initialState: [],
      Self.numbers {
        .run { send in
          await send(.cancelMe)
          try Task.checkCancellation()
          await send(.response)
        }
        .cancellable(id: CancelID.effect)
      })
    store.timeout = patience
    try await store.send(.start)
    try await store.receive(.cancelMe)
    try await store.finish()
  }

  @Test("a .run cancelled by id does not call its catch: (EffectRunTests.testRunCancellationCatch)")
  func runCancellationCatch() async throws {
    let store = TestStore(
      initialState: [],
      Self.numbers {
        .run { send in
          await send(.cancelMe)
          try Task.checkCancellation()
          await send(.response)
        } catch: { _, send in
          await send(.responseB)
        }
        .cancellable(id: CancelID.effect)
      })
    store.timeout = patience
    try await store.send(.start)
    try await store.receive(.cancelMe)
    try await store.finish()
  }

  @Test("a send escaped from a finished .run is reported (EffectRunTests.testRunEscapeFailure)")
  func runEscapeFailure() async {
    let (escaped, sent) = (Gate(), Gate())
    let (_, reports) = await capturingReports {
      let store = Store(initialState: [Int]()) { (_: inout [Int], action: Action) in
        guard action == .start else { return .none }
        return .run { send in
          Task {
            await escaped.wait()
            await send(.response)
            sent.open()
          }
        }
      }
      await store.send(.start).finish()
      escaped.open()
      await sent.wait()
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("response") == true)
  }

  @Test("a concatenation of one effect runs it (EffectTests.testConcatenateOneEffect)")
  func concatenateOneEffect() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: [],
      Self.numbers {
        .concatenate(
          .run { send in
            try await clock.sleep(for: .seconds(1))
            await send(.value(1))
          })
      })
    store.timeout = patience
    try await store.send(.start)
    await clock.advance(by: .seconds(1))
    try await store.receive(.value(1)) { $0 = [1] }
    await clock.run()
    try await store.finish()
    #expect(store.state == [1])
  }
}

// MARK: - StoreTests

@MainActor @Suite struct TCASuitePortStoreTests {
  enum Tick: Equatable, Sendable { case start, end }

  @Test("a send whose reducer returns .none leaves no effect (CancellableIsRemovedOnImmediately)")
  func cancellableRemovedOnImmediatelyCompletingEffect() {
    // StoreTests.testCancellableIsRemovedOnImmediatelyCompletingEffect.
    let store = Store<Int, Tick>(initialState: 0) { _, _ in .none }
    #expect(store.snapshot.effects == 0)
    store.send(.start)
    #expect(store.snapshot.effects == 0)
  }

  @Test("an effect is forgotten once it completes (testCancellableIsRemovedWhenEffectCompletes)")
  func cancellableRemovedWhenEffectCompletes() async {
    let clock = TestClock()
    let store = Store<Int, Tick>(initialState: 0) { _, action in
      guard action == .start else { return .none }
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.end)
      }
    }
    #expect(store.snapshot.effects == 0)
    let task = store.send(.start)
    #expect(store.snapshot.effects == 1)
    await clock.advance(by: .seconds(2))
    await task.finish()
    #expect(store.snapshot.effects == 0)
  }

  static func counter(_ state: inout Int, _ action: Void) -> Effect<Void> {
    state += 1
    return .none
  }

  @Test("a scoped store hears of its parent's sends (testScopedStoreReceivesUpdatesFromParent)")
  func scopedStoreReceivesUpdatesFromParent() {
    let parent = Store(initialState: 0, Self.counter)
    let child = parent.scope(state: { String($0) }, action: { $0 })
    var values: [String] = []
    let subscription = child.subscribe { values.append($0) }
    defer { subscription.cancel() }
    #expect(values == ["0"])
    parent.send(())
    #expect(values == ["0", "1"])
  }

  @Test("a parent hears of its scoped store's sends (testParentStoreReceivesUpdatesFromChild)")
  func parentStoreReceivesUpdatesFromChild() {
    let parent = Store(initialState: 0, Self.counter)
    let child = parent.scope(state: { String($0) }, action: { $0 })
    var values: [Int] = []
    let subscription = parent.subscribe { values.append($0) }
    defer { subscription.cancel() }
    #expect(values == [0])
    child.send(())
    #expect(values == [0, 1])
  }

  @Test("a scope nobody observes is not computed on send (testScopeCallCount_OneLevel_NoSub...)")
  func scopeCallCountNoSubscription() {
    var calls = 0
    let store = Store<Int, Void>(initialState: 0) { _, _ in .none }
      .scope(
        state: { (count: Int) -> Int in
          calls += 1
          return count
        }, action: { $0 })
    withKnownIssue("DOCUMENTED: a scope with Equatable state reads it when it is made") {
      #expect(calls == 0)
    }
    store.send(())
    withKnownIssue(
      "DOCUMENTED: a scope with Equatable state runs toChildState after every send while it lives"
    ) {
      #expect(calls == 0)
    }
  }

  @Test("100,000 .sends in a chain (testLotsOfSynchronousActions)")
  func lotsOfSynchronousActions() {
    let store = Store<Int, Bool>(initialState: 0) { state, increment in
      guard increment else { return .none }
      state += 1
      return .send(state < 100_000)
    }
    store.send(true)
    #expect(store.state == 100_000)
  }

  struct AppState: Equatable { var count: Int? }

  @Test("a store scoped to optional state comes and goes (testIfLetAfterScope)")
  func ifLetAfterScope() {
    let parent = Store<AppState, Int?>(initialState: AppState()) { state, action in
      state.count = action
      return .none
    }
    var outputs: [Int?] = []
    var stores: [Store<Int, Int?>] = []
    let subscription = parent.subscribe(to: { $0.count == nil }) { _ in
      if let store = parent.scope(state: \.count, action: { $0 }) {
        stores.append(store)
        outputs.append(store.state)
      } else {
        outputs.append(nil)
      }
    }
    defer { subscription.cancel() }
    #expect(outputs == [nil])
    for (action, expected) in [(1, [nil, 1]), (nil, [nil, 1, nil]), (1, [nil, 1, nil, 1])] {
      parent.send(action)
      #expect(outputs == expected)
    }
    parent.send(nil)
    parent.send(1)
    parent.send(nil)
    #expect(outputs == [nil, 1, nil, 1, nil, 1, nil])
    #expect(stores.count == 3)
  }

  @Test("a store of optional state, scoped to its value, sends through (testIfLetTwo)")
  func ifLetTwo() async {
    let parent = Store<Int?, Bool>(initialState: 0) { state, action in
      if action {
        state? += 1
        return .none
      }
      return .run { send in await send(true) }
    }
    guard let child = parent.scope(state: { $0 }, action: { $0 }) as Store<Int, Bool>? else {
      Issue.record("the child is nil")
      return
    }
    var seen: [Int] = []
    let subscription = child.subscribe { seen.append($0) }
    defer { subscription.cancel() }
    await child.send(false).finish()
    await child.send(false).finish()
    await child.send(false).finish()
    #expect(child.state == 3)
    #expect(seen == [0, 1, 2, 3])
  }

  struct ChildState: Equatable { var count: Int? }
  struct ParentState: Equatable {
    var count: Int?
    var child: ChildState?
  }
  enum ParentAction: Equatable, Sendable {
    case button
    case child(Int?)
  }

  @Test("a send made by an observer during a send is queued behind it (BufferedActionProcessing)")
  func bufferedActionProcessing() {
    // StoreTests.testBufferedActionProcessing: TCA reports the reentrant send as undefined; MiniRedux
    // queues it (Guarantees: "A send made while an action is being reduced ... is queued").
    var handled: [ParentAction] = []
    let reducer = Reduce<ParentState, ParentAction> { state, action in
      handled.append(action)
      switch action {
      case .button: state.child = ChildState(count: nil)
      case .child(let count): state.count = count
      }
      return .none
    }
    .ifLet(\.child, action: ParentAction.child) { (state: inout ChildState, action: Int?) in
      state.count = action
      return .none
    }
    let parent = Store(initialState: ParentState(), reducer)
    let subscription = parent.subscribe(to: { $0.child != nil }) { isPresent in
      guard isPresent, let child = parent.scope(state: \.child, action: ParentAction.child) else {
        return
      }
      child.send(2)
    }
    defer { subscription.cancel() }
    #expect(handled == [])
    parent.send(.button)
    #expect(handled == [.button, .child(2)])
    #expect(parent.state == ParentState(count: 2, child: ChildState(count: 2)))
  }

  @Test("a scoped store's send finishes, leaving no effect (testScopeCancellation)")
  func scopeCancellation() async {
    let gate = Gate()
    let store = Store<Int, Void>(initialState: 0) { _, _ in
      .run { _ in await gate.wait() }
    }
    let scoped = store.scope(state: { $0 }, action: { $0 })
    let task = scoped.send(())
    gate.open()
    await task.finish()
    #expect(store.snapshot.effects == 0)
    #expect(scoped.snapshot.effects == 0)
  }

  enum Isolation {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable, Sendable { case cancelButtonTapped, response(Int), tap }
    enum CancelID { case effect }
    static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
      { state, action in
        switch action {
        case .cancelButtonTapped: return .cancel(id: CancelID.effect)
        case .response(let value):
          state.count = value
          return .none
        case .tap:
          return .run { send in
            try await clock.sleep(for: .seconds(0))
            await send(.response(42))
          }
          .cancellable(id: CancelID.effect)
        }
      }
    }
  }

  @Test("one store's .cancel(id:) does not reach another's (RootStoreCancellationIsolation)")
  func rootStoreCancellationIsolation() async {
    let clock = TestClock()
    let store1 = Store(initialState: Isolation.State(), Isolation.reducer(clock))
    let store2 = Store(initialState: Isolation.State(), Isolation.reducer(clock))
    let task1 = store1.send(.tap)
    let task2 = store2.send(.tap)
    store2.send(.cancelButtonTapped)
    await clock.advance()
    await task1.finish()
    await task2.finish()
    #expect(store1.state.count == 42)
    #expect(store2.state.count == 0)
  }

  @Test("one test store's .cancel(id:) does not reach another's (..._TestStore)")
  func rootStoreCancellationIsolationTestStore() async throws {
    let clock = TestClock()
    let store1 = TestStore(initialState: Isolation.State(), Isolation.reducer(clock))
    let store2 = TestStore(initialState: Isolation.State(), Isolation.reducer(clock))
    store1.timeout = patience
    store2.timeout = patience
    try await store1.send(.tap)
    try await store2.send(.tap)
    try await store2.send(.cancelButtonTapped)
    await clock.advance()
    try await store1.receive(Isolation.Action.response) { $0.count = 42 }
    try await store1.finish()
    try await store2.finish()
  }

  struct LifeParent { var child: Int? }
  enum LifeAction: Sendable { case child(Void), presentButtonTapped }

  @Test("a parent store with a scoped child is released (ModernStoreTests.parentChildLifecycle)")
  func parentChildLifecycle() {
    weak var parentStore: Store<LifeParent, LifeAction>?
    do {
      let reducer = Reduce<LifeParent, LifeAction> { state, action in
        if case .presentButtonTapped = action { state.child = 0 }
        return .none
      }
      .ifLet(\.child, action: LifeAction.child) { (count: inout Int, _: Void) in
        count += 1
        return .none
      }
      let store = Store(initialState: LifeParent(), reducer)
      parentStore = store
      store.send(.presentButtonTapped)
      guard let child = store.scope(state: \.child, action: LifeAction.child) else {
        Issue.record("Child is 'nil'")
        return
      }
      child.send(())
      #expect(child.state == 1)
    }
    #expect(parentStore == nil)
  }
}

// MARK: - TestStoreTests, TestStoreFailureTests, TestStoreNonExhaustiveTests

@MainActor @Suite struct TCASuitePortTestStoreTests {
  enum Action: Equatable, Sendable { case tap, response(Int) }

  @Test("an async effect's response is received (TestStoreTests.testAsync)")
  func asyncResponse() async throws {
    let store = TestStore(initialState: 0) { (state: inout Int, action: Action) in
      switch action {
      case .tap: return .run { send in await send(.response(42)) }
      case .response(let number):
        state = number
        return .none
      }
    }
    store.timeout = patience
    try await store.send(.tap)
    try await store.receive(.response(42)) { $0 = 42 }
    try await store.finish()
  }

  @Test("a closure that changes nothing fails (testExpectedStateEqualityMustModify, both files)")
  func expectedStateEqualityMustModify() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, action: Bool) in
      action ? .send(false) : .none
    }
    store.timeout = patience
    try await store.send(true)
    try await store.receive(false)
    await withKnownIssue("TCA expects a failure: the closure made no change") {
      try await store.send(true) { $0 = 0 }
    }
    await withKnownIssue("TCA expects a failure: the closure made no change") {
      try await store.receive(false) { $0 = 0 }
    }
    try await store.finish()
  }

  @Test("a closure that only reads fails (TestStoreFailureTests.testNoStateChangeFailure)")
  func noStateChangeFailure() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, action: Bool) in
      action ? .send(false) : .none
    }
    store.timeout = patience
    await withKnownIssue("TCA expects a failure: no change occurred") {
      try await store.send(true) { _ = $0 }
    }
    await withKnownIssue("TCA expects a failure: no change occurred") {
      try await store.receive(false) { _ = $0 }
    }
    try await store.finish()
  }

  @Test("a wrong or missing closure fails (testStateChangeFailure, UnexpectedStateChangeOn...)")
  func stateChangeFailures() async throws {
    // TestStoreFailureTests.testStateChangeFailure, testUnexpectedStateChangeOnSendFailure,
    // testUnexpectedStateChangeOnReceiveFailure.
    let store = TestStore(initialState: 0) { (state: inout Int, action: Bool) in
      state += 1
      return action ? .send(false) : .none
    }
    store.timeout = patience
    await withKnownIssue("TCA expects a failure: the state change does not match") {
      try await store.send(false) { $0 = 0 }
    }
    await withKnownIssue("TCA expects a failure: the state was not expected to change") {
      try await store.send(false)
    }
    try await store.send(true) { $0 = 3 }
    await withKnownIssue("TCA expects a failure: the state was not expected to change") {
      try await store.receive(false)
    }
    try await store.finish()
  }

  @Test("receive of an action never sent, or of another one, fails (ReceiveNonExistent/Unexpected)")
  func receiveFailures() async throws {
    // TestStoreFailureTests.testReceiveNonExistentActionFailure, testReceiveUnexpectedActionFailure.
    let store = TestStore(initialState: 0) { (state: inout Int, action: Bool) in
      if action { return .send(false) }
      state += 1
      return .none
    }
    store.timeout = .milliseconds(200)
    await withKnownIssue("TCA expects a failure: nothing to receive") {
      try await store.receive(true)
    }
    store.timeout = patience
    try await store.send(true)
    // As in TCA, the failing receive takes the action it received.
    await withKnownIssue("TCA expects a failure: received .false, not .true") {
      try await store.receive(true)
    }
    try await store.finish()
  }

  @Test("a send before receiving fails; the actions are still received (SendActionBeforeReceiving)")
  func sendActionBeforeReceiving() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, action: Bool) in
      action ? .send(false) : .none
    }
    store.timeout = patience
    try await store.send(true)
    await withKnownIssue("TCA expects a failure: 1 received action not handled") {
      try await store.send(true)
    }
    try await store.receive(false)
    try await store.receive(false)
    try await store.finish()
  }

  @Test("a closure that throws fails the step (testModifyClosureThrowsErrorFailure)")
  func modifyClosureThrows() async throws {
    struct SomeError: Error {}
    let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in .none }
    await withKnownIssue("TCA expects a failure: threw SomeError()") {
      try await store.send(true) { _ in throw SomeError() }
    }
    try await store.finish()
  }

  enum Outer: Equatable, Sendable {
    case tap, delegate(Delegate)
    enum Delegate: Equatable, Sendable { case success(Int) }
  }

  @Test("receive a case with a check of its payload (testReceiveCaseKeyPathWithValue)")
  func receiveCaseWithValue() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, action: Outer) in
      action == .tap ? .send(.delegate(.success(42))) : .none
    }
    store.timeout = patience
    try await store.send(.tap)
    try await store.receive(Outer.delegate, where: { $0 == .success(42) })
    try await store.send(.tap)
    await withKnownIssue("TCA expects a failure: .success(42), not .success(43)") {
      try await store.receive(Outer.delegate, where: { $0 == .success(43) })
    }
    store.skipReceivedActions()
    try await store.finish()
  }

  @Test("skipReceivedActions moves the state on (testSkipReceivedActions_NonExhaustive, NonStrict)")
  func skipReceivedActions() async throws {
    for exhaustivity in [Exhaustivity.off, .on] {
      let store = TestStore(initialState: 0) { (state: inout Int, action: Bool) in
        state += 1
        return action ? .send(false) : .none
      }
      store.exhaustivity = exhaustivity
      store.timeout = patience
      try await store.send(true) { $0 = 1 }
      #expect(store.state == 1)
      store.skipReceivedActions()
      #expect(store.state == 2, "exhaustivity \(exhaustivity)")
      try await store.finish()
    }
  }

  struct Login: Equatable {
    var count = 0
    var isLoggedIn = false
  }
  enum LoginAction: Equatable, Sendable { case decrement, increment, loggedInResponse(Bool) }
  static func login(_ state: inout Login, _ action: LoginAction) -> Effect<LoginAction> {
    switch action {
    case .decrement:
      state.count -= 1
      return .none
    case .increment:
      state.count += 1
      return .send(.loggedInResponse(true))
    case .loggedInResponse(let response):
      state.isLoggedIn = response
      return .none
    }
  }

  @Test("a send skips the received action and its change (testSend_SkipReceivedActions)")
  func sendSkipReceivedActions() async throws {
    let store = TestStore(initialState: Login(), Self.login)
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.increment) { $0.count = 1 }
    try await store.send(.decrement) { $0.count = 0 }
    #expect(store.state == Login(count: 0, isLoggedIn: true))
    try await store.finish()
  }

  @Test("a wrong change in a non-exhaustive receive fails (SkipReceivedActions_BadAssertion)")
  func sendSkipReceivedActionsBadAssertion() async throws {
    let store = TestStore(initialState: Login(), Self.login)
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.increment) { $0.count = 1 }
    await withKnownIssue("TCA expects a failure: count is 1, not 2") {
      try await store.receive(.loggedInResponse(true)) {
        $0.count = 2
        $0.isLoggedIn = true
      }
    }
    try await store.finish()
  }

  struct Counter: Equatable {
    var count = 0
    var isEven = true
  }

  @Test("sends without closures, the last with one (testMultipleSendsWithAssertionOnLast)")
  func multipleSendsWithAssertionOnLast() async throws {
    let store = TestStore(initialState: Counter()) { (state: inout Counter, _: Bool) in
      state.count += 1
      state.isEven.toggle()
      return .none
    }
    store.exhaustivity = .off
    try await store.send(true)
    #expect(store.state == Counter(count: 1, isEven: false))
    try await store.send(true)
    #expect(store.state == Counter(count: 2, isEven: true))
    try await store.send(true) { $0.count = 3 }
    #expect(store.state == Counter(count: 3, isEven: false))
    try await store.finish()
  }

  struct Receive: Equatable {
    var count = 0
    var int = 0
    var string = ""
  }
  enum ReceiveAction: Equatable, Sendable { case onAppear, response1(Int), response2(String) }
  static func receive(_ state: inout Receive, _ action: ReceiveAction) -> Effect<ReceiveAction> {
    switch action {
    case .onAppear:
      state = Receive()
      return .merge(.send(.response1(42)), .send(.response2("Hello")))
    case .response1(let int):
      state.count += 1
      state.int = int
      return .none
    case .response2(let string):
      state.count += 1
      state.string = string
      return .none
    }
  }

  @Test("receive by case, exhaustive and not (testCasePathReceive_Exhaustive, _NonExhaustive)")
  func casePathReceive() async throws {
    let exhaustive = TestStore(initialState: Receive(), Self.receive)
    exhaustive.timeout = patience
    try await exhaustive.send(.onAppear)
    try await exhaustive.receive(ReceiveAction.response1) {
      $0.count = 1
      $0.int = 42
    }
    try await exhaustive.receive(ReceiveAction.response2) {
      $0.count = 2
      $0.string = "Hello"
    }
    try await exhaustive.finish()

    let partial = TestStore(initialState: Receive(), Self.receive)
    partial.exhaustivity = .off
    partial.timeout = patience
    try await partial.send(.onAppear)
    try await partial.receive(ReceiveAction.response1) { $0.int = 42 }
    try await partial.receive(ReceiveAction.response2) { $0.string = "Hello" }
    try await partial.finish()
  }

  @Test("a non-exhaustive receive by case skips another (testCasePathReceive_SkipReceivedAction)")
  func casePathReceiveSkip() async throws {
    let store = TestStore(initialState: Receive(), Self.receive)
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.onAppear)
    try await store.receive(ReceiveAction.response2) { $0.string = "Hello" }
    #expect(store.state == Receive(count: 2, int: 42, string: "Hello"))
    try await store.finish()
  }

  struct NonEquatable {}
  enum NonEquatableAction: Sendable { case tap, response(NonEquatable) }

  @Test("receive a non-Equatable action by case and by predicate (..._Exhaustive_NonEquatable)")
  func nonEquatableReceive() async throws {
    // testCasePathReceive_Exhaustive_NonEquatable, testPredicateReceive_Exhaustive_NonEquatable.
    let store = TestStore(initialState: 0) { (_: inout Int, action: NonEquatableAction) in
      if case .tap = action { return .send(.response(NonEquatable())) }
      return .none
    }
    store.timeout = patience
    try await store.send(.tap)
    try await store.receive(NonEquatableAction.response)
    try await store.send(.tap)
    try await store.receive({ if case .response = $0 { true } else { false } })
    try await store.finish()
  }

  enum Twice: Equatable, Sendable { case tap, response1, response2 }

  @Test("two non-exhaustive receives of the same action (...WithTimeoutMultipleMatching)")
  func receiveMultipleMatching() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, action: Twice) in
      guard action == .tap else { return .none }
      return .run { send in
        try await Task.sleep(for: .milliseconds(10))
        await send(.response2)
        try await Task.sleep(for: .milliseconds(10))
        await send(.response2)
      }
    }
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.tap)
    try await store.receive(.response2, timeout: patience)
    try await store.receive(.response2, timeout: patience)
    try await store.finish()
  }
}

// MARK: - StackReducerTests

@MainActor @Suite struct TCASuitePortStackTests {
  enum Element: Equatable {
    case int(Int)
    case text(String)
  }

  @Test("a stack's screen read and written by case (testStackStateSubscriptCase)")
  func stackStateSubscriptCase() {
    var stack = StackState<Element>([.int(42)])
    let id = stack.ids[0]
    stack[id: id][case: Element.int]? += 1
    #expect(stack[id: id] == .int(43))
    stack[id: id][case: Element.text] = "no"
    #expect(stack[id: id] == .int(43), "another case stays as it is")
    stack[id: id][case: Element.int] = nil
    #expect(stack.isEmpty)
  }

  struct Child: Equatable {}
  struct Parent: Equatable { var children = StackState<Child>() }
  enum Action: Equatable, Sendable {
    case child(id: Int, ChildAction)
    case push, popAll
  }
  enum ChildAction: Equatable, Sendable { case noop }  // TCA's child has no actions (`Never`).
  static let reducer = Reduce<Parent, Action> { state, action in
    switch action {
    case .child: break
    case .push: state.children.append(Child())
    case .popAll: state.children.removeAll()
    }
    return .none
  }
  .forEach(\.children, action: Action.child) { (_: inout Child, _: ChildAction) in .none }

  @Test("pushes take ids 0, 1, 2...; after popping all, a push takes a new one (testPush)")
  func push() async throws {
    // TCA pushes with `.push(id:state:)` too, and may push id 0 again once it is popped; MiniRedux's
    // parent appends, and no id is given twice (MigratingFromTCA: StackState).
    let store = TestStore(initialState: Parent(), Self.reducer)
    for _ in 0..<4 {
      try await store.send(.push) { $0.children.append(Child()) }
    }
    #expect(store.state.children.ids == [0, 1, 2, 3])
    try await store.send(.popAll) { $0.children = StackState() }
    try await store.send(.push) { $0.children.append(Child()) }
    #expect(store.state.children.ids == [4])
    try await store.finish()
  }

  @Test("asserting a push under the wrong id fails (testMismatchedIDFailure)")
  func mismatchedID() async throws {
    let store = TestStore(initialState: Parent(), Self.reducer)
    await withKnownIssue("TCA expects a failure: #1 expected, #0 pushed") {
      try await store.send(.push) { $0.children[id: 1] = Child() }
    }
    try await store.finish()
  }
}

// MARK: - PresentationReducerTests (case subscripts)

@MainActor @Suite struct TCASuitePortCaseTests {
  enum Child: Equatable {
    case int(Int)
    case text(String)
  }
  struct Parent: Equatable { var child: Child? }

  @Test("an optional enum read and written by case (testPresentationStateSubscriptCase)")
  func presentationStateSubscriptCase() {
    var parent = Parent(child: .int(42))
    parent.child[case: Child.int]? += 1
    #expect(parent.child == .int(43))
    parent.child[case: Child.int] = nil
    #expect(parent.child == nil)
  }

  @Test("writing another case changes nothing (testPresentationStateSubscriptCase_Unexpected)")
  func presentationStateSubscriptCaseUnexpected() {
    // TCA reports `Can't modify unrelated case "int"`; MiniRedux's `[case:]` writes only the case
    // the value holds, silently (MigratingFromTCA's table).
    var parent = Parent(child: .int(42))
    parent.child[case: Child.text]?.append("!")
    parent.child[case: Child.text] = nil
    #expect(parent.child == .int(42))
  }
}

// MARK: - StoreLifetimeTests, CompatibilityTests, DebugTests, ObservableTests

@MainActor @Suite struct TCASuitePortLifetimeTests {
  enum Child {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable, Sendable { case tap, start, response }
    static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
      { state, action in
        state.count += 1
        guard action == .start else { return .none }
        return .run { send in
          try await clock.sleep(for: .seconds(0))
          await send(.response)
        }
      }
    }
  }
  enum Parent {
    struct State: Equatable { var child = Child.State() }
    enum Action: Equatable, Sendable { case child(Child.Action) }
    static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
      Reduce<State, Action> { _, _ in .none }
        .scope(\.child, action: Action.child, child: Child.reducer(clock))
    }
  }
  enum Grandparent {
    struct State: Equatable { var child = Parent.State() }
    enum Action: Equatable, Sendable { case child(Parent.Action), incrementGrandchild }
    static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
      Reduce<State, Action> { state, action in
        if action == .incrementGrandchild { state.child.child.count += 1 }
        return .none
      }
      .scope(\.child, action: Action.child, child: Parent.reducer(clock))
    }
  }

  @Test("a store scoped from a released scoped store still works (testStoreInvalidation)")
  func storeInvalidation() {
    let grandparent = Store(initialState: Grandparent.State(), Grandparent.reducer(TestClock()))
    var parent: Store<Parent.State, Parent.Action>? = grandparent.scope(
      state: \.child, action: Grandparent.Action.child)
    let child = parent!.scope(state: \.child, action: Parent.Action.child)
    child.send(.tap)
    #expect(grandparent.state.child.child.count == 1)
    #expect(parent?.state.child.count == 1)
    #expect(child.state.count == 1)
    grandparent.send(.incrementGrandchild)
    #expect(grandparent.state.child.child.count == 2)
    #expect(parent?.state.child.count == 2)
    #expect(child.state.count == 2)
    parent = nil
    child.send(.tap)
    #expect(grandparent.state.child.child.count == 3)
    #expect(child.state.count == 3)
    grandparent.send(.incrementGrandchild)
    #expect(grandparent.state.child.child.count == 4)
    #expect(child.state.count == 4)
  }

  @Test("a scoped store released while its effect runs: the effect still answers (UnCachedStores)")
  func unCachedStores() async {
    let clock = TestClock()
    let store = Store(initialState: Parent.State(), Parent.reducer(clock).reduce)
    let task: StoreTask
    do {
      let child = store.scope(state: \.child, action: Parent.Action.child)
      task = child.send(.start)
      #expect(store.state.child.count == 1)
    }
    await clock.advance()
    await task.finish()
    #expect(store.state.child.count == 2)
  }

  @Test("releasing a store cancels its running effect (testStoreDeinit_RunningEffect)")
  func storeDeinitRunningEffect() async {
    let finished = Gate()
    weak var weakStore: Store<Int, Bool>?
    do {
      let store = Store<Int, Bool>(initialState: 0) { _, _ in
        .run { _ in
          await untilCancelled()
          finished.open()
        }
      }
      weakStore = store
      store.send(true)
    }
    #expect(weakStore == nil)
    await finished.wait()
  }

  final class OnDeinit: Equatable, @unchecked Sendable {
    private let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
    static func == (lhs: OnDeinit, rhs: OnDeinit) -> Bool { true }
  }
  enum Reentrant: Equatable, Sendable {
    case start, kickOffAction, actionSender(OnDeinit), stop
    var name: String {
      switch self {
      case .start: "start"
      case .kickOffAction: "kickOffAction"
      case .actionSender: "actionSender"
      case .stop: "stop"
      }
    }
  }

  @Test("an action whose payload sends on deinit (ActionReentranceFromClearedBuffer...)")
  func actionReentranceFromClearedBuffer() async {
    // CompatibilityTests.testCaseStudy_ActionReentranceFromClearedBufferCausingDeinitAction, with
    // an AsyncStream for TCA's PassthroughSubject.
    enum CancelID { case stream }
    let (stream, continuation) = AsyncStream<Reentrant>.makeStream()
    var handled: [String] = []
    let store = Store<Int, Reentrant>(initialState: 0) { _, action in
      handled.append(action.name)
      switch action {
      case .start:
        return .run { send in
          for await action in stream { await send(action) }
        }
        .cancellable(id: CancelID.stream)
      case .kickOffAction:
        return .send(.actionSender(OnDeinit { continuation.yield(.stop) }))
      case .actionSender: return .none
      case .stop: return .cancel(id: CancelID.stream)
      }
    }
    let started = store.send(.start)
    store.send(.kickOffAction)
    await started.finish()
    continuation.finish()
    #expect(handled == ["start", "kickOffAction", "actionSender", "stop"])
  }

  @Test("a listener's send is reduced after the send it hears of (ActionReentranceFromState...)")
  func actionReentranceFromStateObservation() {
    // CompatibilityTests.testCaseStudy_ActionReentranceFromStateObservation: TCA reports the
    // reentrant send; MiniRedux queues it (Guarantees, Order).
    let store = Store<Int, Int>(initialState: 0) { state, action in
      state = action
      return .none
    }
    let first = store.subscribe { if $0 == 1 { store.send(0) } }
    var changes: [Int] = []
    let second = store.subscribe { changes.append($0) }
    defer {
      first.cancel()
      second.cancel()
    }
    #expect(changes == [0])
    store.send(1)
    #expect(changes == [0, 1, 0])
  }

  @Test("printChanges nested four times prints each action four times, in order (Order)")
  func debugReducerOrder() async {
    // DebugTests.testDebugReducer_Order.
    var logs: [String] = []
    var reducer: Reducer<Int, Bool> = { state, action in
      state += action ? 1 : -1
      return .run { _ in await Task.yield() }
    }
    for _ in 0..<4 {
      reducer = printChanges(reducer) { logs.append($0.components(separatedBy: "\n")[0]) }
    }
    let store = Store(initialState: 0, reducer)
    var tasks: [StoreTask] = []
    for action in [true, false, true, false] { tasks.append(store.send(action)) }
    for task in tasks { await task.finish() }
    let expected = [true, false, true, false].flatMap {
      Array(repeating: "received \($0)", count: 4)
    }
    #expect(logs == expected)
  }

  struct ChildState: Equatable { var count = 0 }
  struct ParentState: Equatable { var child = ChildState() }

  @Test("replacing or resetting a child tells its readers (ObservableTests.testStore_ReplaceChild)")
  func observeReplaceAndReset() {
    // ObservableTests.testStore_ReplaceChild, testStore_Replace, testStore_ResetChild,
    // testStore_Reset.
    let replaceChild = Store<ParentState, Void>(initialState: ParentState()) { state, _ in
      state.child = ChildState(count: 42)
      return .none
    }
    let resetChild = Store<ParentState, Void>(initialState: ParentState(child: .init(count: 42))) {
      state, _ in
      state.child = ChildState()
      return .none
    }
    for (store, expected) in [(replaceChild, 42), (resetChild, 0)] {
      let changed = Recorder<Bool>()
      withObservationTracking {
        _ = store.child
      } onChange: {
        changed.append(true)
      }
      store.send(())
      #expect(changed.values == [true])
      #expect(store.child.count == expected)
    }
    let replace = Store<ChildState, Void>(initialState: ChildState()) { state, _ in
      state = ChildState(count: 42)
      return .none
    }
    let reset = Store<ChildState, Void>(initialState: ChildState(count: 42)) { state, _ in
      state = ChildState()
      return .none
    }
    for (store, expected) in [(replace, 42), (reset, 0)] {
      let changed = Recorder<Bool>()
      withObservationTracking {
        _ = store.count
      } onChange: {
        changed.append(true)
      }
      store.send(())
      #expect(changed.values == [true])
      #expect(store.count == expected)
    }
  }
}

// MARK: - MemoryManagementTests

@MainActor @Suite struct TCASuitePortMemoryTests {
  static func counter(_ state: inout Int, _ action: Void) -> Effect<Void> {
    state += 1
    return .none
  }

  @Test("a scope of a scope of a store nobody else holds (testOwnership_ScopeHoldsOntoParent)")
  func scopeHoldsOntoParent() {
    let store = Store(initialState: 0, Self.counter)
      .scope(state: { "\($0)" }, action: { $0 })
      .scope(state: { Int($0)! }, action: { $0 })
    var count = 0
    let subscription = store.subscribe { count = $0 }
    defer { subscription.cancel() }
    #expect(count == 0)
    store.send(())
    #expect(count == 1)
  }

  enum Action: Sendable { case tap, response }

  @Test("an effect's action through two scopes (testEffectWithMultipleScopes)")
  func effectWithMultipleScopes() async {
    let ran = Gate()
    let store = Store<Bool, Action>(initialState: false) { state, action in
      switch action {
      case .tap:
        state = false
        return .send(.response)
      case .response:
        state = true
        return .run { _ in ran.open() }
      }
    }
    let scoped = store.scope(state: { $0 }, action: { $0 }).scope(state: { $0 }, action: { $0 })
    var values: [Bool] = []
    let subscription = scoped.subscribe { values.append($0) }
    defer { subscription.cancel() }
    #expect(values == [false])
    let task = scoped.send(.tap)
    await ran.wait()
    await task.finish()
    #expect(values == [false, true])
  }
}

// MARK: - ReducerTests, more non-exhaustive tests, and TCA idioms

@MainActor @Suite struct TCASuitePortMoreTests {
  /// A feature of ReducerTests.testCombine_EffectsAreMerged: adds one, then sets a value later.
  static func delayed(
    _ clock: TestClock, _ delay: Duration, _ setValue: @escaping @MainActor @Sendable () -> Void
  ) -> Reducer<Int, Bool> {
    { state, _ in
      state += 1
      return .run { _ in
        try await clock.sleep(for: delay)
        await setValue()
      }
    }
  }

  @Test("two reducers' effects run merged, a hop to the main actor included (Combine_Effects...)")
  func combineEffectsAreMerged() async throws {
    // ReducerTests.testCombine_EffectsAreMerged, without TCA's sleep of a third of a second after
    // the advance: TestClock's advance lets woken effects run past a hop to the main actor.
    let values = Locked<(fast: Int?, slow: Int?)>((nil, nil))
    let clock = TestClock()
    let fast = Self.delayed(clock, .seconds(1)) { values.withLock { $0.fast = 42 } }
    let slow = Self.delayed(clock, .seconds(2)) { values.withLock { $0.slow = 1729 } }
    let store = TestStore(initialState: 0) { (state: inout Int, action: Bool) in
      .merge(fast(&state, action), slow(&state, action))
    }
    store.timeout = patience
    try await store.send(true) { $0 = 2 }
    await clock.advance(by: .seconds(1))
    #expect(values.current.fast == 42)
    #expect(values.current.slow == nil)
    await clock.advance(by: .seconds(1))
    try await store.finish()
    #expect(values.current.fast == 42)
    #expect(values.current.slow == 1729)
  }

  @Test(
    "a closure that changes nothing passes with exhaustivity off (ShowSkipped..._ExpectedState)")
  func nonExhaustiveExpectedStateToChange() async throws {
    let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in .none }
    store.exhaustivity = .off
    try await store.send(true) { $0 = 0 }
    try await store.finish()
  }

  @Test("received actions left unasserted with exhaustivity off (IgnoreReceiveActions_Partial...)")
  func ignoreReceivedActionsNoFinish() async throws {
    // TCA's test ends after the send, with no finish: the test store's release accepts it.
    try await {
      let store = TestStore(initialState: 0) { (_: inout Int, action: Bool) in
        action ? .send(false) : .none
      }
      store.exhaustivity = .off
      try await store.send(true)
    }()
  }

  enum Prefix: Equatable, Sendable { case buttonTapped, response(Int) }

  @Test("sends between an effect's responses, exhaustivity off (testPartialExhaustivityPrefix)")
  func partialExhaustivityPrefix() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: 0) { (state: inout Int, action: Prefix) in
      switch action {
      case .buttonTapped:
        state += 1
        return .run { send in
          await send(.response(42))
          try await clock.sleep(for: .seconds(1))
          await send(.response(1729))
        }
      case .response(let number):
        state = number
        return .none
      }
    }
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.buttonTapped)
    await clock.advance(by: .milliseconds(500))
    try await store.send(.buttonTapped) { $0 = 43 }
    await clock.advance(by: .milliseconds(500))
    // TCA: `skipInFlightEffects()`, which MiniRedux does not have: the second effect runs out.
    await clock.advance(by: .milliseconds(500))
    store.skipReceivedActions()
    #expect(store.state == 1729)
    try await store.finish()
  }

  enum Many: Equatable, Sendable { case start, tick }

  @Test("a .run sends from the child tasks of a task group (TCA idiom)")
  func taskGroupSends() async throws {
    let store = Store<Int, Many>(initialState: 0) { state, action in
      switch action {
      case .start:
        return .run { send in
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { await send(.tick) } }
          }
        }
      case .tick:
        state += 1
        return .none
      }
    }
    await store.send(.start).finish()
    #expect(store.state == 100)
  }

  enum ChildAction: Equatable, Sendable { case start, tick }
  enum ParentAction: Equatable, Sendable { case child(ChildAction), stop }
  enum CancelID { case timer }

  @Test("an id survives .map: the parent's .cancel(id:) stops a child's mapped effect (TCA idiom)")
  func mapKeepsIDs() async throws {
    let clock = TestClock()
    let child: Reducer<Int, ChildAction> = { state, action in
      switch action {
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .tick:
        state += 1
        return .none
      }
    }
    let store = TestStore(initialState: 0) { (state: inout Int, action: ParentAction) in
      switch action {
      case .child(let action): return child(&state, action).map(ParentAction.child)
      case .stop: return .cancel(id: CancelID.timer)
      }
    }
    store.timeout = patience
    try await store.send(.child(.start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.child(.tick)) { $0 = 1 }
    try await store.send(.stop)
    await clock.advance(by: .seconds(5))
    try await store.finish()
  }

  enum Family {
    struct State: Equatable {
      var count = 0
      var child: Int?
    }
    enum Action: Equatable, Sendable { case child(ChildAction), delay }
    enum ChildAction: Equatable, Sendable { case task, didFinish }
  }

  @Test("cancelling a child's send cancels what the parent started in reply (ChildParentEffect...)")
  func childParentEffectCancellation() async {
    // StoreTests.testChildParentEffectCancellation, which TCA marks XCTTODO for the same reason:
    // "cancelling a child task will cancel all parent effects too". MiniRedux does so by design
    // (Guarantees: a send and everything its effects sent back is one unit).
    let clock = TestClock()
    let reducer = Reduce<Family.State, Family.Action> { state, action in
      switch action {
      case .child(.didFinish):
        state.child = nil
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.delay)
        }
      case .child: return .none
      case .delay:
        state.count += 1
        return .none
      }
    }
    .ifLet(\.child, action: Family.Action.child) { (_: inout Int, action: Family.ChildAction) in
      action == .task ? .run { send in await send(.didFinish) } : .none
    }
    let store = Store(initialState: Family.State(child: 0), reducer)
    let childTask = store.send(.child(.task))
    let gone = Gate()  // TCA sleeps a tenth of a second; this waits for the child to be gone.
    let subscription = store.subscribe(to: { $0.child == nil }) { if $0 { gone.open() } }
    await gone.wait()
    subscription.cancel()
    childTask.cancel()
    await clock.advance(by: .seconds(1))
    await childTask.finish()
    withKnownIssue("DOCUMENTED: cancelling a send's task cancels the effects its actions started") {
      #expect(store.state.count == 1)
    }
  }
}

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
