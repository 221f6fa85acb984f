import Foundation
import Testing

@testable import MiniRedux

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tiny seeded generator (SplitMix64), so a failing storm program can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// `true` with probability `percent`/100.
  mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }
}

/// Suspends until the current task is cancelled, in O(1) (no shared list of waiters to scan).
func suspendUntilCancelled() async {
  let slot = Locked<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>(
    (nil, false))
  await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      let resumeNow = slot.withLock { slot in
        if slot.cancelled { return true }
        slot.continuation = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  } onCancel: {
    let continuation = slot.withLock { slot in
      slot.cancelled = true
      defer { slot.continuation = nil }
      return slot.continuation
    }
    continuation?.resume()
  }
}

/// Counts operations that are running right now: `enter` at the start, `leave` on the way out.
final class LiveCounter: Sendable {
  private let state = Locked((live: 0, started: 0, sawCancellation: 0))

  func enter() {
    state.withLock {
      $0.live += 1; $0.started += 1
    }
  }

  func leave(cancelled: Bool) {
    state.withLock {
      $0.live -= 1
      if cancelled { $0.sawCancellation += 1 }
    }
  }

  var live: Int { state.current.live }
  var started: Int { state.current.started }
  var sawCancellation: Int { state.current.sawCancellation }
}

/// Reads an integer from the environment, e.g. `MINIREDUX_STORM_PROGRAMS=200`.
func environmentInteger(_ name: String) -> Int? {
  ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
}

/// Which sanitizer this test binary was built with, found by looking for its runtime's symbols.
enum Sanitizer: String {
  case none, thread, address

  static let current: Sanitizer = {
    #if canImport(Glibc) || canImport(Darwin)
      let handle = dlopen(nil, RTLD_NOW)
      if dlsym(handle, "__tsan_init") != nil { return .thread }
      if dlsym(handle, "__asan_init") != nil { return .address }
    #endif
    return .none
  }()
}

/// Bytes the allocator holds for live objects (glibc `mallinfo2().uordblks`), or nil elsewhere.
///
/// NB: `malloc.h` is not part of the Glibc module, so `mallinfo2` is looked up with `dlsym`. It
/// returns `struct mallinfo2` (ten `size_t`s) in memory: on x86-64 the caller passes the result
/// address as a hidden first argument, which is how it is called here. Other targets return nil.
func liveHeapBytes() -> Int? {
  #if canImport(Glibc) && arch(x86_64)
    typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallinfo2") else { return nil }
    let mallinfo2 = unsafeBitCast(symbol, to: MallInfo2.self)
    var fields = [Int](repeating: 0, count: 10)
    fields.withUnsafeMutableBytes { _ = mallinfo2($0.baseAddress!) }
    // NB: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost.
    return fields[7]
  #else
    return nil
  #endif
}

/// Seconds spent in `body`, for printing figures (never for assertions).
@MainActor
func measure(_ body: @MainActor () async throws -> Void) async rethrows -> Double {
  let start = ContinuousClock.now
  try await body()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A reducer wrapper that records an issue if the store ever calls it while it is already running.
@MainActor
final class ReentrancyProbe {
  private(set) var isReducing = false
  private(set) var reentries = 0
  private(set) var reduced = 0

  func wrap<State, Action>(
    _ reducer: @escaping @MainActor (inout State, Action) -> Effect<Action>
  ) -> @MainActor (inout State, Action) -> Effect<Action> {
    { [self] state, action in
      if isReducing { reentries += 1 }
      isReducing = true
      defer { isReducing = false }
      reduced += 1
      return reducer(&state, action)
    }
  }
}

extension Double {
  /// Two decimals, for printed figures.
  var formatted2: String { String(format: "%.2f", self) }
}
