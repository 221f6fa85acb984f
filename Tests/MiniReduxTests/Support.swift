import Foundation
import Testing

@testable import MiniRedux

extension Store {
  /// The runs and concatenations in flight and the ids they are under, the attached scoped
  /// stores, unpruned too, and the properties Observation watches.
  var snapshot: (effects: Int, ids: Int, scopes: Int, observed: Int) {
    let registry = core as? Registry
    let (scopes, observed) = (layers.scopes.count, layers.observed.count)
    return (registry?.inFlight.count ?? 0, registry?.byID.count ?? 0, scopes, observed)
  }
}

/// A clock that moves only when a test advances it.
///
/// Sleepers register under a lock; `advance(by:)` resumes every sleeper whose deadline has
/// passed. A sleep cancelled before or after it registered throws `CancellationError`.
final class ManualClock: Clock, @unchecked Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock right now.
  var sleeperCount: Int { lock.withLock { sleepers.count } }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow: Result<Void, any Error>? = lock.withLock {
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= current { return .success(()) }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
      }
    } onCancel: {
      let cancelled = lock.withLock {
        sleepers.firstIndex { $0.id == id }.map { sleepers.remove(at: $0) }
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes every sleeper whose deadline has come.
  func advance(by duration: Duration) {
    let due = lock.withLock {
      current = current.advanced(by: duration)
      let due = sleepers.filter { $0.deadline <= current }
      sleepers.removeAll { $0.deadline <= current }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}

/// How long a test waits for effects to end, or for a condition to hold, before it fails saying
/// what it waited for and goes on (see ``WaitBudget``): long enough for a loaded machine or a
/// sanitizer, short enough that a core that never ends an effect fails its tests in a minute or
/// two instead of hanging the suite.
let waitLimit = Duration.seconds(10)

/// The time a wait has spent, counted while the main actor was free to run the waiter.
///
/// NB: Tests that hold the main actor for seconds (a million synchronous sends) stall every test
/// waiting beside them; each stall counts as `step` at most, so that it times no other test out.
struct WaitBudget {
  static let step = Duration.milliseconds(100)
  let limit: Duration
  private var (spent, last) = (Duration.zero, ContinuousClock.now)

  init(_ limit: Duration) { self.limit = limit }

  /// Counts the time since the budget was made or last asked; returns whether it is spent.
  mutating func isSpent() -> Bool {
    let now = ContinuousClock.now
    (spent, last) = (spent + min(now - last, Self.step), now)
    return spent >= limit
  }
}

/// Polls `condition`, yielding and then sleeping a millisecond between polls (so that a failing
/// wait never starves the main actor); fails the test if it still does not hold after `limit`.
@MainActor
func eventually(
  _ limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: @MainActor () -> Bool
) async {
  var budget = WaitBudget(limit)
  var polls = 0
  while !condition() {
    guard !budget.isSpent() else {
      Issue.record("condition still false after \(limit)", sourceLocation: sourceLocation)
      return
    }
    // NB: Yields first, as what a test waits for is mostly a few jobs away.
    polls += 1
    if polls < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
  }
}

/// Waits for the effects of `tasks` to end, each in turn, as `finish()` does, but for `limit` at
/// most: past it, fails the test at the caller's line, naming what was still in flight, and
/// cancels the tasks, so that the test goes on to its checks and ends. Returns whether they ended
/// in time, so that a loop of waits stops at its first failure.
@MainActor @discardableResult
func finished(
  _ tasks: StoreTask?..., within limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  await finished(tasks, within: limit, sourceLocation: sourceLocation)
}

/// Waits for the effects of `tasks` to end, for `limit` at most, as the variadic form does.
@MainActor @discardableResult
func finished(
  _ tasks: [StoreTask?], within limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  let tasks = tasks.compactMap { $0 }
  // NB: As `finish()`, returns without suspending when nothing is in flight.
  guard tasks.contains(where: { $0.count > 0 }) else { return true }
  let ended = await bounded(limit) {
    // NB: The library bounds it too; this bound, the shorter, names what was in flight.
    for task in tasks { await task.finish(timeout: limit * 2) }
    return true
  }
  guard ended == nil else { return true }
  let left = tasks.enumerated().filter { $0.element.count > 0 }
  let what =
    left.isEmpty
    ? "none is in flight, yet finish() did not return"
    : left.map { index, task in
      let noun = task.count == 1 ? "effect or action" : "effects or actions"
      return "\(tasks.count == 1 ? "" : "task \(index + 1): ")\(task.count) \(noun) in flight"
    }.joined(separator: ", ")
  Issue.record(
    "the effects did not end within \(limit): \(what); cancelled, so that the test goes on",
    sourceLocation: sourceLocation)
  for (_, task) in left { task.cancel() }
  return false
}

/// Waits for `task` to end, for `limit` at most: past it, fails the test at the caller's line and
/// cancels the task, without waiting for it to notice.
@MainActor
func ended<T: Sendable>(
  _ task: Task<T, Never>, within limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  guard await bounded(limit, { await task.value }) == nil else { return }
  Issue.record("the task did not end within \(limit); cancelled it", sourceLocation: sourceLocation)
  task.cancel()
}

/// Waits for `task` to end, for `limit` at most, and returns its value or throws its error: past
/// the limit, fails the test at the caller's line, cancels the task and throws ``TimedOut``.
@MainActor
func value<T: Sendable>(
  of task: Task<T, any Error>, within limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws -> T {
  guard let result = await bounded(limit, { await task.result }) else {
    Issue.record(
      "the task did not end within \(limit); cancelled it", sourceLocation: sourceLocation)
    task.cancel()
    throw TimedOut()
  }
  return try result.get()
}

/// What ``value(of:within:sourceLocation:)`` throws for a task that did not end in time.
struct TimedOut: Error {}

/// Waits until `gate` opens, for `limit` at most; past it, fails the test at the caller's line.
@MainActor
func opened(
  _ gate: Gate, within limit: Duration = waitLimit,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  guard await bounded(limit, { await gate.wait() }) == nil else { return }
  Issue.record("the gate did not open within \(limit)", sourceLocation: sourceLocation)
}

/// Returns what `operation` returns, or nil once `limit` has passed (see ``WaitBudget``) or the
/// waiting task was cancelled; then it cancels `operation` and leaves it, never waiting for it to
/// notice, so that nothing `operation` waits for can hold the test.
@MainActor
func bounded<T: Sendable>(
  _ limit: Duration, _ operation: @escaping @MainActor () async -> T
) async -> T? {
  let first = FirstOf<T>()
  let work = Task { @MainActor in first.end(await operation()) }
  let watchdog = Task { @MainActor in
    var budget = WaitBudget(limit)
    while !budget.isSpent() {
      do { try await Task.sleep(for: .milliseconds(50)) } catch { return }
    }
    first.end(nil)
  }
  let result = await withTaskCancellationHandler {
    await first.value()
  } onCancel: {
    first.end(nil)
  }
  watchdog.cancel()
  if result == nil { work.cancel() }
  return result
}

/// A value behind a lock, for counters and logs that effects touch off the main actor.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.withLock { body(&value) }
  }

  var current: Value { lock.withLock { value } }
}

/// The first of several outcomes, resumed once: a race's result.
private final class FirstOf<T: Sendable>: Sendable {
  private let state = Locked<(ended: Bool, result: T?, waiter: CheckedContinuation<T?, Never>?)>(
    (false, nil, nil))

  /// Ends the race with `result`, unless it has ended.
  func end(_ result: T?) {
    let waiter = state.withLock { state -> CheckedContinuation<T?, Never>? in
      guard !state.ended else { return nil }
      state.ended = true
      state.result = result
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: result)
  }

  /// The result, once the race has ended.
  func value() async -> T? {
    await withCheckedContinuation { continuation in
      let ended = state.withLock { state -> (Bool, T?) in
        if !state.ended { state.waiter = continuation }
        return (state.ended, state.result)
      }
      if ended.0 { continuation.resume(returning: ended.1) }
    }
  }
}

/// A one-shot gate: effects wait on it, the test opens it.
final class Gate: @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = lock.withLock {
        if isOpen { return true }
        waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  var waiterCount: Int { lock.withLock { waiters.count } }

  func open() {
    let waiters = lock.withLock {
      isOpen = true
      defer { self.waiters = [] }
      return self.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A thread-safe list, for recording what effects observe.
final class Recorder<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: [Element] = []

  func append(_ element: Element) { lock.withLock { elements.append(element) } }
  var values: [Element] { lock.withLock { elements } }
}

/// The reporter in effect now, with its reports of errors and misuse going to `report`.
func reporter(_ report: @escaping @Sendable (String) -> Void) -> Reporter {
  var reporter = miniReduxReporter.get()
  reporter.report = { message, _ in report(message) }
  return reporter
}

/// Records the issues test stores would record (a released one's too) and, if `reports`, what
/// MiniRedux reports, instead of failing the test.
@MainActor
func issuesRecorded(
  reports: Bool = false, _ body: () async throws -> Void
) async rethrows -> [String] {
  let issues = Recorder<String>()
  var reporter = miniReduxReporter.get()
  reporter.recordIssue = { message, _ in
    issues.append(message)
    return true
  }
  if reports { reporter.report = { message, _ in issues.append(message) } }
  try await miniReduxReporter.withValue(reporter) { try await body() }
  return issues.values
}

/// Runs `body` with the library's error and misuse reports captured instead of printed.
func capturingReports<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> R
) async rethrows -> (result: R, reports: [String]) {
  let reports = Recorder<String>()
  let result = try await miniReduxReporter.withValue(
    reporter { reports.append($0) }, operation: body, isolation: isolation)
  return (result, reports.values)
}

/// How long the tests' test stores wait for effects, instead of the default second.
///
/// NB: The suite runs CPU-heavy tests (the storm) in parallel, which can keep an effect's action
/// from reaching the main actor for seconds. Tests that check a timeout pass their own.
let patience = Duration.seconds(60)

/// Suspends until the task is cancelled, as a long-running effect does, and leaves nothing behind:
/// a cancelled `Task.sleep` keeps its timer until its deadline, which LeakSanitizer reports.
func untilCancelled() async {
  let (never, continuation) = AsyncStream<Never>.makeStream()
  for await _ in never {}
  continuation.finish()
}

/// Runs each test of a suite with test store steps that throw their failures, as in a script,
/// instead of recording them with Swift Testing: the tests of those failures catch them.
struct ThrowingFailures: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    var reporter = miniReduxReporter.get()
    reporter.recordIssue = { _, _ in false }
    try await miniReduxReporter.withValue(reporter) { try await function() }
  }
}

extension Trait where Self == ThrowingFailures {
  /// Test store steps throw their failures: see ``ThrowingFailures``.
  static var throwingFailures: Self { Self() }
}

extension Store {
  /// A store as an app makes it: its effects run on the global executor, and `send` does not let
  /// them reach their first suspension first, as a store made in a test does. For the tests of
  /// scale and concurrency, which check what an app gets.
  convenience init(asInApp initialState: State, _ reducer: @escaping Reducer<State, Action>) {
    var reporter = miniReduxReporter.get()
    reporter.makeExecutor = { nil }
    let runtime = miniReduxReporter.withValue(reporter) {
      Runtime(initialState, reducer, context: nil)
    }
    self.init(core: runtime)
    runtime.store = self
  }
}

/// Expects two long lists to be equal, comparing their counts and finding their first difference:
/// `#expect(a == b)` on 100,000 elements computes a full diff when it fails, holding the main
/// actor for minutes, and every test waiting for it with it.
func expectSame<Element: Equatable>(
  _ actual: [Element], _ expected: [Element], sourceLocation: SourceLocation = #_sourceLocation
) {
  let common = min(actual.count, expected.count)
  let message: String
  if let index = (0..<common).first(where: { actual[$0] != expected[$0] }) {
    message = "the lists differ first at index \(index): \(actual[index]), not \(expected[index])"
  } else if actual.count != expected.count {
    message = "\(actual.count) elements, not \(expected.count); the first \(common) are the same"
  } else {
    return
  }
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// What LeakSanitizer (`swift test --sanitize=address`) does not report, read through its hook, so
/// that the suite passes as typed, with no `LSAN_OPTIONS`. Only what is not our code:
/// - XCTest's runner leaks a few objects on every run (`XCTestSuiteRun`, `XCTMainMisc`), even
///   with no XCTest tests, as `swift test` starts it before Swift Testing.
/// - Foundation's `Process.run` leaks the side table of a weak reference (32 bytes) on every run;
///   the tests of forgotten work start child processes with it.
/// - A cancelled `Task.sleep` leaves its wake-up job on Dispatch's timer until its deadline; held
///   there at exit, it is reported now and then, as LeakSanitizer does not follow the timer.
@_cdecl("__lsan_default_suppressions")
func leakSanitizerSuppressions() -> UnsafePointer<CChar> {
  let suppressions: StaticString = """
    leak:libXCTest.so
    leak:Foundation7ProcessC3run
    leak:ScTss5NeverORszABRs_rlE6_sleep5until9tolerance5clock

    """
  return UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Yields the main actor once every thousand steps of a long loop, so that the tests running
/// beside a test of scale get their turns instead of waiting for the whole loop.
@MainActor func yieldSometimes(_ step: Int) async {
  if step % 1_000 == 999 { await Task.yield() }
}
