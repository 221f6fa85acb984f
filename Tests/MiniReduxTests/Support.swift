import Foundation
import Testing

@testable import MiniRedux

extension Store {
  /// The runs and concatenations in flight and the ids they are under, the attached scoped
  /// stores, unpruned too, and the properties Observation watches.
  var snapshot: (effects: Int, ids: Int, scopes: Int, observed: Int) {
    let registry = core as? Registry
    return (registry?.running.count ?? 0, registry?.byID.count ?? 0, scopes.count, observed.count)
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

/// Waits, by yielding, until `condition` holds; fails the test after `limit` yields.
@MainActor
func eventually(
  _ limit: Int = 100_000,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: @MainActor () -> Bool
) async {
  for _ in 0..<limit {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("condition still false after \(limit) yields", sourceLocation: sourceLocation)
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
