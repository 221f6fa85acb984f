import Foundation
import Testing

@testable import MiniRedux

/// Every wait a test can make ends, or fails saying why, within seconds (Guarantees.md, Testing).
@MainActor
@Suite("Fail fast: no silent wait")
struct FailFastTests {
  struct Profile: Equatable { var name = "" }
  enum Action: Equatable, Sendable { case load, loaded(String) }

  static func reducer(_ clock: TestClock) -> Reducer<Profile, Action> {
    { state, action in
      switch action {
      case .load:
        return .run { send in
          try await clock.sleep(for: .milliseconds(200))
          await send(.loaded("Blob"))
        }
      case .loaded(let name):
        state.name = name
        return .none
      }
    }
  }

  @Test("a plain Store driven by a TestClock: send, advance, finish, as a new user writes it")
  func plainStoreWithTestClock() async {
    let clock = TestClock()
    let store = Store(initialState: Profile(), Self.reducer(clock))
    let task = store.send(.load)
    await clock.advance(by: .milliseconds(200))
    await task.finish(timeout: waitLimit)
    #expect(store.state.name == "Blob")
  }

  @Test("finish() in a test on an effect that never ends fails at its line, cancels, and returns")
  func finishIsBounded() async {
    let clock = TestClock()
    let store = Store(initialState: Profile(), Self.reducer(clock))
    let task = store.send(.load)
    var line: UInt = 0
    let issues = await recordedIssues {
      // When: the test forgets to advance the clock.
      line = #line + 1
      await task.finish(timeout: .milliseconds(300))
    }
    // Then: one failure, at the line of the wait, that says what to do; the effect is cancelled.
    #expect(issues.count == 1)
    #expect(issues.first?.line == line)
    #expect(issues.first?.message.hasPrefix("MiniRedux: finish() waited 0.3 seconds") == true)
    #expect(issues.first?.message.contains("TestClock") == true)
    #expect(task.isCancelled)
    await finished(task)
  }

  @Test("a receive's timeout counts no stall of the main actor: a heavy test beside it fails none")
  func receiveDiscountsStalls() async throws {
    let gate = Gate()
    let store = TestStore(initialState: Gated.State(), Gated.reducer(gate))
    try await store.send(.load)
    // Given: a receive that waits two seconds at most for an action that needs the gate.
    let waiting = Task {
      try await store.receive(.loaded(0), timeout: .seconds(2)) { $0.loaded = [0] }
    }
    for _ in 0..<3 { await Task.yield() }
    // When: the main actor is held for three seconds, as a heavy test beside this one does, then
    // the receive's timer runs, and only then the gate opens.
    let end = ContinuousClock.now + .seconds(3)
    while ContinuousClock.now < end {}
    // NB: A few yields, each a turn of every test waiting for the main actor: the timer's is due.
    for _ in 0..<3 { await Task.yield() }
    gate.open()
    // Then: the receive still gets the action, as the stall counted a tenth of a second.
    try await value(of: waiting)
    try await store.finish()
  }
}

/// The failures MiniRedux records in `body`, instead of failing the test.
@MainActor
func recordedIssues(_ body: () async throws -> Void) async rethrows -> [(
  message: String, line: UInt
)] {
  let issues = Locked<[(message: String, line: UInt)]>([])
  var reporter = miniReduxReporter.get()
  reporter.recordIssue = { message, location in
    issues.withLock { $0.append((message, location.line)) }
    return true
  }
  try await miniReduxReporter.withValue(reporter) { try await body() }
  return issues.current
}
