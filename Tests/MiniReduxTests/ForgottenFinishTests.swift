import Foundation
import Testing
import XCTest

@testable import MiniRedux

/// The fixtures a child process runs: `forgetful` tests leave work behind and never call
/// `finish()`, the `clean` one ends properly. Skipped unless `MINIREDUX_FIXTURE` names them.
enum Fixture {
  static let name = ProcessInfo.processInfo.environment["MINIREDUX_FIXTURE"]

  /// 0 starts an effect that runs until cancelled, 1 sends 2 back; each adds itself to the count.
  static let reduce: Reducer<Int, Int> = { count, action in
    count += action
    guard action == 0 else { return action == 1 ? .send(2) : .none }
    return .run { _ in await untilCancelled() }
  }

  /// The lines where the fixtures make their test stores, or fail a step.
  static let lines = (effect: 28, action: 34, step: 41, xcTest: 73)
}

@MainActor
@Suite("Fixtures run by ForgottenFinishTests in a child process")
struct ForgetfulFixtures {
  @Test(.enabled(if: Fixture.name == "forgetful"))
  func leavesAnEffectRunning() async throws {
    let store = TestStore(initialState: 0, Fixture.reduce)
    try await store.send(0)
  }

  @Test(.enabled(if: Fixture.name == "forgetful"))
  func leavesAnActionUnreceived() async throws {
    let store = TestStore(initialState: 0, Fixture.reduce)
    try await store.send(1) { $0 = 1 }
  }

  @Test(.enabled(if: Fixture.name == "forgetful"))
  func failsThenForgets() async throws {
    let store = TestStore(initialState: 0, Fixture.reduce)
    try await store.send(0) { $0 = 5 }
  }

  @Test(.enabled(if: Fixture.name == "clean"))
  func finishes() async throws {
    let store = TestStore(initialState: 0, Fixture.reduce)
    try await store.send(1) { $0 = 1 }
    try await store.receive(2) { $0 = 3 }
    try await store.send(0).cancel()
    try await store.finish()
  }
}

/// Run by ForgottenFinishTests in a child process: a failure outside any test framework, after an
/// exit handler registered before it, as LeakSanitizer's and the coverage runtime's are.
@Test(.enabled(if: Fixture.name == "exits"))
func failsOutsideATestFramework() {
  atexit {
    let line = "an earlier exit handler ran\n"
    _ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
  }
  var reporter = miniReduxReporter.get()
  reporter.recordIssue = { _, _ in false }
  miniReduxReporter.withValue(reporter) {
    miniReduxReport("MiniRedux: a failure outside a test", fails: true)
  }
}

final class ForgetfulXCTestFixture: XCTestCase {
  @MainActor
  func testLeavesAnEffectRunning() async throws {
    try XCTSkipUnless(Fixture.name == "forgetful")
    let store = TestStore(initialState: 0, Fixture.reduce)
    try await store.send(0)
  }
}

@Suite("A test that forgets finish() fails swift test, in Swift Testing and in XCTest")
struct ForgottenFinishTests {
  /// The test binary, which runs its own fixtures in a child process; `swift test` on Linux runs
  /// it directly (elsewhere a helper loads the tests, and these tests do not run).
  static let binary = CommandLine.arguments[0]
  static let runsDirectly =
    binary.hasSuffix(".xctest")
    && FileManager.default.isExecutableFile(atPath: binary)

  /// Runs the fixture `name` with `arguments`; returns the exit status and what it printed. A
  /// fixture still running after `limit` is stopped, failing the test at the caller's line.
  static func run(
    _ name: String, _ arguments: [String], limit: Duration = patience,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["MINIREDUX_FIXTURE": name]) { $1 }
    let output = Pipe()
    (process.standardError, process.standardOutput) = (output, output)
    try process.run()
    let stopped = Locked(false)
    let watchdog = DispatchWorkItem { [process] in
      guard process.isRunning else { return }
      stopped.withLock { $0 = true }
      process.terminate()
    }
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .nanoseconds(Int(limit / .nanoseconds(1))), execute: watchdog)
    // NB: Read before waiting, so that a full pipe cannot block the child.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    if stopped.current {
      Issue.record(
        "the fixture \(name) was still running after \(limit); stopped it",
        sourceLocation: sourceLocation)
    }
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static let swiftTesting = ["--testing-library", "swift-testing", "--filter", "ForgetfulFixtures"]

  @Test(
    "Swift Testing: each forgetful test fails, at the line that made its store, with what it left",
    .enabled(if: runsDirectly))
  func swiftTestingFails() throws {
    let (status, output) = try Self.run("forgetful", Self.swiftTesting)
    let file = "ForgottenFinishTests.swift"
    #expect(status == 1)
    #expect(
      output.contains(
        "leavesAnEffectRunning() recorded an issue at \(file):\(Fixture.lines.effect):"))
    #expect(output.contains("effects of 0 (sent at MiniReduxTests/\(file):"))
    #expect(
      output.contains(
        "leavesAnActionUnreceived() recorded an issue at \(file):\(Fixture.lines.action):"))
    #expect(output.contains("2 received but not asserted"))
    // A test whose step failed gets that failure, and no advice to call finish().
    #expect(
      output.contains("failsThenForgets() recorded an issue at \(file):\(Fixture.lines.step):"))
    #expect(output.contains("failsThenForgets() failed after") && output.contains("with 1 issue"))
    #expect(!output.contains("The test process will exit"))
  }

  @Test(
    "XCTest: the forgetful test fails, at the line that made its store", .enabled(if: runsDirectly))
  func xcTestFails() throws {
    let (status, output) = try Self.run("forgetful", ["MiniReduxTests.ForgetfulXCTestFixture"])
    #expect(status == 1)
    #expect(
      output.contains(
        "ForgottenFinishTests.swift:\(Fixture.lines.xcTest): error: "
          + "ForgetfulXCTestFixture.testLeavesAnEffectRunning : failed - MiniRedux: the TestStore "
          + "created at MiniReduxTests/ForgottenFinishTests.swift:\(Fixture.lines.xcTest)"))
    #expect(output.contains("Executed 1 test, with 1 failure"))
  }

  @Test(
    "a failure outside a test framework exits with status 1; earlier exit handlers still run",
    .enabled(if: runsDirectly))
  func exitsWithOne() throws {
    let (status, output) = try Self.run(
      "exits", ["--testing-library", "swift-testing", "--filter", "failsOutsideATestFramework"])
    #expect(status == 1)
    #expect(output.contains("MiniRedux: a failure outside a test"))
    #expect(output.contains("an earlier exit handler ran"))
  }

  @Test("a test that ends cleanly still passes", .enabled(if: runsDirectly))
  func cleanPasses() throws {
    let (status, output) = try Self.run("clean", Self.swiftTesting)
    #expect(status == 0)
    #expect(!output.contains("MiniRedux:"))
  }
}
