import Foundation
import Testing
import XCTest

@testable import MiniRedux

/// The fixture a child process runs: `forgetful` tests leave work behind and never call
/// `finish()`, the `clean` one ends properly. Skipped unless `MINIREDUX_FIXTURE` names them.
enum Fixture {
  static let name = ProcessInfo.processInfo.environment["MINIREDUX_FIXTURE"]

  /// 0 starts an effect that runs until cancelled, 1 sends 2 back; each adds itself to the count.
  @MainActor static func store() -> TestStore<Int, Int> {
    TestStore(initialState: 0) { count, action in
      count += action
      guard action == 0 else { return action == 1 ? .send(2) : .none }
      return .run { _ in await untilCancelled() }
    }
  }
}

@MainActor
@Suite("Fixtures run by ForgottenFinishTests in a child process")
struct ForgetfulFixtures {
  @Test(.enabled(if: Fixture.name == "forgetful"))
  func leavesAnEffectRunning() async throws {
    let store = Fixture.store()
    try await store.send(0)
  }

  @Test(.enabled(if: Fixture.name == "forgetful"))
  func leavesAnActionUnreceived() async throws {
    let store = Fixture.store()
    try await store.send(1) { $0 = 1 }
  }

  @Test(.enabled(if: Fixture.name == "clean"))
  func finishes() async throws {
    let store = Fixture.store()
    try await store.send(1) { $0 = 1 }
    try await store.receive(2) { $0 = 3 }
    try await store.send(0).cancel()
    try await store.finish()
  }
}

final class ForgetfulXCTestFixture: XCTestCase {
  @MainActor
  func testLeavesAnEffectRunning() async throws {
    try XCTSkipUnless(Fixture.name == "forgetful")
    let store = Fixture.store()
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

  /// Runs the fixture `name` with `arguments`; returns the exit status and standard error.
  static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["MINIREDUX_FIXTURE": name]) { $1 }
    let (errors, output) = (Pipe(), Pipe())
    (process.standardError, process.standardOutput) = (errors, output)
    try process.run()
    // NB: Read before waiting, so that a full pipe cannot block the child.
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    _ = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: errorData, as: UTF8.self))
  }

  static let swiftTesting = ["--testing-library", "swift-testing", "--filter", "ForgetfulFixtures"]

  @Test(
    "Swift Testing: the run fails, naming where each store was created and what it left",
    .enabled(if: runsDirectly))
  func swiftTestingFails() throws {
    let (status, errors) = try Self.run("forgetful", Self.swiftTesting)
    #expect(status == 1)
    #expect(errors.contains("created at MiniReduxTests/ForgottenFinishTests.swift:14"))
    #expect(errors.contains("1 effect of 0 (sent at MiniReduxTests/ForgottenFinishTests.swift:"))
    #expect(errors.contains("2 received but not asserted"))
    #expect(errors.contains("The test process will exit with status 1."))
  }

  @Test("XCTest: the run fails the same way", .enabled(if: runsDirectly))
  func xcTestFails() throws {
    let (status, errors) = try Self.run("forgetful", ["MiniReduxTests.ForgetfulXCTestFixture"])
    #expect(status == 1)
    #expect(errors.contains("created at MiniReduxTests/ForgottenFinishTests.swift:14"))
  }

  @Test("a test that ends cleanly still passes", .enabled(if: runsDirectly))
  func cleanPasses() throws {
    let (status, errors) = try Self.run("clean", Self.swiftTesting)
    #expect(status == 0)
    #expect(!errors.contains("MiniRedux"))
  }
}
