import Foundation
import Testing

@testable import MiniRedux

/// A timer that ticks on the clock it is given until it is stopped.
enum Ticking {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick, stop }
  enum CancelID { case timer }

  static func reducer(clock: some Clock<Duration>)
    -> @MainActor (inout State, Action) -> Effect<Action>
  {
    { state, action in
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
        state.ticks += 1
        return .none
      case .stop:
        return .cancel(id: CancelID.timer)
      }
    }
  }
}

@MainActor
@Suite("TestClock: time a test controls, with no polling", .throwingFailures)
struct ClockTests {
  /// How many times the loop runs each test: `.ci/run` sets 1,000 in a step of its own.
  static let iterations =
    ProcessInfo.processInfo.environment["MINIREDUX_CLOCK_ITERATIONS"].flatMap { Int($0) } ?? 20

  @Test("a debounce test written the obvious way passes every time")
  func debounce() async throws {
    for _ in 0..<Self.iterations {
      let clock = TestClock()
      let store = TestStore(
        initialState: Search.State(), Search.reducer(clock: clock) { query in ["\(query)!"] })
      store.timeout = patience
      try await store.send(.queryChanged("b")) { $0.query = "b" }
      try await store.send(.queryChanged("ba")) { $0.query = "ba" }
      await clock.advance(by: .milliseconds(300))
      try await store.receive(.resultsLoaded(["ba!"])) { $0.results = ["ba!"] }
      try await store.finish()
    }
  }

  @Test("a timer test written the obvious way passes every time, one tick per deadline")
  func timer() async throws {
    for _ in 0..<Self.iterations {
      let clock = TestClock()
      let store = TestStore(initialState: Ticking.State(), Ticking.reducer(clock: clock))
      store.timeout = patience
      try await store.send(.start)
      await clock.advance(by: .milliseconds(999))
      await clock.advance(by: .milliseconds(1))
      try await store.receive(.tick) { $0.ticks = 1 }
      await clock.advance(by: .seconds(3))
      try await store.receive(.tick) { $0.ticks = 2 }
      try await store.receive(.tick) { $0.ticks = 3 }
      try await store.receive(.tick) { $0.ticks = 4 }
      try await store.send(.stop)
      try await store.finish()
    }
  }

  @Test("a timer in a task group's child task has slept on the clock before send returns")
  func timerInTaskGroup() async throws {
    for _ in 0..<Self.iterations {
      // As SyncUps' RecordMeeting runs its timer: in a child task of a group, which the effect's
      // task starts and then awaits; the child yields 30 times before it sleeps.
      await expectOneTick { clock, send in
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            for _ in 0..<30 { await Task.yield() }
            try? await clock.sleep(for: .seconds(1))
            await send(true)
          }
        }
      }
    }
  }

  @Test("on a busy machine, an effect slow to reach its sleep has slept before send returns")
  func slowHopsBeforeTheSleep() async throws {
    // Each of 15 hops works 100 ms, as each is slow on a loaded machine: 1.5 s before the sleep,
    // more than the second a send's wait had in all; each pass of it has a second now.
    await expectOneTick { clock, send in
      for _ in 0..<15 {
        usleep(100_000)
        await Task.yield()
      }
      try? await clock.sleep(for: .seconds(1))
      await send(true)
    }
  }

  /// Sends a plain store's `false`, which runs `operation` (it should sleep a second on the clock,
  /// then send `true`, a tick), advances the clock a second, and expects the tick.
  private func expectOneTick(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: @escaping @Sendable (TestClock, Send<Bool>) async -> Void
  ) async {
    let clock = TestClock()
    let store = Store(initialState: 0) { (ticks: inout Int, tick: Bool) in
      guard !tick else { return (ticks += 1, .none).1 }
      return .run { send in await operation(clock, send) }
    }
    let task = store.send(false)
    await clock.advance(by: .seconds(1))
    #expect(store.state == 1, sourceLocation: sourceLocation)
    await task.finish()
  }

  @Test("an ImmediateTestClock's sleeps return at once, moving now on; cancelled, they throw")
  func immediate() async throws {
    let clock = ImmediateTestClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(5))
    try await clock.sleep(until: start.advanced(by: .seconds(1)))
    #expect(clock.now == start.advanced(by: .seconds(5)))
    let cancelled = Task { try await clock.sleep(for: .seconds(1)) }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await value(of: cancelled) }

    // A debounce and a timer, tested with no advance at all.
    let store = TestStore(
      initialState: Search.State(), Search.reducer(clock: clock) { query in ["\(query)!"] })
    store.timeout = patience
    try await store.send(.queryChanged("b")) { $0.query = "b" }
    try await store.receive(.resultsLoaded(["b!"])) { $0.results = ["b!"] }
    try await store.finish()
  }

  @Test("advance moves now deadline by deadline, never back; a sleep already due returns at once")
  func now() async throws {
    let clock = TestClock()
    let start = clock.now
    await clock.advance(by: .seconds(5))
    #expect(clock.now == start.advanced(by: .seconds(5)))
    try await value(of: Task { try await clock.sleep(until: start.advanced(by: .seconds(1))) })
    await clock.advance(by: .seconds(-10))
    #expect(clock.now == start.advanced(by: .seconds(5)))
  }

  @Test("a test store whose effect holds its thread does not slow a clock test beside it")
  func busyNeighbour() async throws {
    // Given: a store whose effect blocks its thread until the test releases it (no CPU burnt).
    let release = DispatchSemaphore(value: 0)
    let busy = TestStore(initialState: 0) { (_: inout Int, _: Bool) in
      .run { _ in release.wait() }
    }
    // NB: Its own send waits this long for the effect to reach a suspension, which it never does.
    busy.timeout = .milliseconds(100)
    try await busy.send(true)
    defer { release.signal() }

    // When: a debounce test runs the obvious way beside it.
    let clock = TestClock()
    let store = TestStore(
      initialState: Search.State(), Search.reducer(clock: clock) { query in ["\(query)!"] })
    store.timeout = .seconds(5)
    try await store.send(.queryChanged("b")) { $0.query = "b" }
    await clock.advance(by: .milliseconds(300))

    // Then: the clock moved, and the result arrived without waiting for the neighbour.
    try await store.receive(.resultsLoaded(["b!"])) { $0.results = ["b!"] }
    try await store.finish()
    release.signal()
    try await busy.finish(timeout: patience)
  }

  @Test("advance moves time on, and reports, when an effect keeps running instead of waiting")
  func effectThatKeepsRunning() async throws {
    // Given: an effect that sleeps on the clock once, then keeps its executor busy.
    let clock = TestClock()
    clock.patience = .milliseconds(200)
    let stop = Locked(false)
    let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in
      .run { _ in
        try await clock.sleep(for: .seconds(1))
        while !stop.current { await Task.yield() }
      }
    }
    store.timeout = patience
    let start = clock.now
    try await store.send(true)

    // When
    let (_, reports) = await capturingReports { await clock.advance(by: .seconds(2)) }

    // Then: time moved to the end, and the clock said why it did not wait.
    #expect(clock.now == start.advanced(by: .seconds(2)))
    #expect(reports.count == 1)
    #expect(reports.first?.contains("keep running") == true)
    stop.withLock { $0 = true }
    try await store.finish()
  }

  @Test("a zero-length sleep waits for the next advance, advance() by default moves nothing")
  func zeroLengthSleep() async throws {
    // Given: an effect that sleeps for zero, then sends.
    let clock = TestClock()
    let start = clock.now
    let store = TestStore(initialState: 0) { (count: inout Int, action: Bool) in
      guard action else {
        count += 1
        return .none
      }
      return .run { send in
        try await clock.sleep(for: .zero)
        await send(false)
      }
    }
    store.timeout = .milliseconds(50)
    try await store.send(true)

    // Then: nothing arrives until the clock is advanced, and the receive says to advance it.
    await #expect {
      try await store.receive(false) { $0 = 1 }
    } throws: { error in
      "\(error)".contains("while 1 sleeps on a TestClock: advance it")
    }

    // When: the test advances by nothing.
    store.timeout = patience
    await clock.advance()

    // Then: the sleeper wakes; time did not move.
    try await store.receive(false) { $0 = 1 }
    try await store.finish()
    #expect(clock.now == start)
  }

  @Test("advance(to:) moves to an instant; run() moves until nothing sleeps on the clock")
  func advanceToAndRun() async throws {
    // Given: a countdown that sleeps three times, a second each, then ends.
    let clock = TestClock()
    let start = clock.now
    let store = TestStore(initialState: 3) { (count: inout Int, action: Bool) in
      guard action else {
        count -= 1
        return .none
      }
      return .run { send in
        for _ in 0..<3 {
          try await clock.sleep(for: .seconds(1))
          await send(false)
        }
      }
    }
    store.timeout = patience
    try await store.send(true)

    // When: the test moves to an instant, then runs the clock out.
    await clock.advance(to: start.advanced(by: .seconds(1)))
    try await store.receive(false) { $0 = 2 }
    await clock.run()

    // Then: every tick arrived, time stopped at the last deadline, nothing sleeps.
    try await store.receive(false) { $0 = 1 }
    try await store.receive(false) { $0 = 0 }
    try await store.finish()
    #expect(clock.now == start.advanced(by: .seconds(3)))
    await clock.advance(to: start)
    #expect(clock.now == start.advanced(by: .seconds(3)))
  }

  @Test("run() reports a timer that never stops, after its patience, and returns")
  func runReportsEndlessTimer() async throws {
    let clock = TestClock()
    clock.patience = .milliseconds(100)
    let store = TestStore(initialState: Ticking.State(), Ticking.reducer(clock: clock))
    store.exhaustivity = .off
    store.timeout = patience
    try await store.send(.start)
    let (_, reports) = await capturingReports { await clock.run() }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("TestClock.run()") == true)
    try await store.send(.stop)
    try await store.finish()
  }

  @Test("a sleep cancelled before or while it waits throws CancellationError")
  func cancelledSleep() async throws {
    let clock = TestClock()
    let early = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await value(of: early) }
    let waiting = Task { try await clock.sleep(for: .seconds(1)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await value(of: waiting) }
    await clock.advance(by: .seconds(2))
  }
}
