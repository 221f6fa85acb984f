import CHeap
import MiniRedux

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Defeating the optimizer

/// Consumes a value so the work that produced it cannot be removed.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// Returns its argument through a call the optimizer cannot see through, so closures and counts
/// passed through it are opaque.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }

/// A reducer the optimizer cannot inline or specialize away.
func opaqueReducer<State, Action: Sendable>(
  _ reducer: @escaping @MainActor (inout State, Action) -> Effect<Action>
) -> @MainActor (inout State, Action) -> Effect<Action> {
  opaque(reducer)
}

// MARK: - Measuring

/// The figures of one scenario: nanoseconds per operation for each measured repetition.
struct Measurement {
  let id: String
  let name: String
  let operations: Int
  let samples: [Double]
  /// The id of the scenario this one is compared with, if any.
  var floor: String?
  /// Extra figures printed under the table and written to the JSON file.
  var notes: [(String, String)] = []

  var sorted: [Double] { samples.sorted() }
  var min: Double { sorted.first ?? .nan }
  var max: Double { sorted.last ?? .nan }
  var median: Double {
    let sorted = sorted
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}

extension Duration {
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

/// Runs `body` once to warm up, then `repetitions` times measured; `body` performs `operations`
/// operations and returns how long the measured part took.
@MainActor
func measure(
  _ id: String, _ name: String, operations: Int, repetitions: Int, floor: String? = nil,
  _ body: () async -> Duration
) async -> Measurement {
  _ = await body()
  var samples: [Double] = []
  for _ in 0..<repetitions {
    samples.append(await body().nanoseconds / Double(operations))
  }
  return Measurement(id: id, name: name, operations: operations, samples: samples, floor: floor)
}

/// Times `body` with `ContinuousClock`.
@MainActor
func timed(_ body: () async -> Void) async -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  await body()
  return clock.now - start
}

/// CPU time the calling thread has used, in nanoseconds: it shows how much of a wall-clock
/// figure the thread spent waiting for a core.
func threadCPUNanoseconds() -> Double {
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
  #else
    return .nan
  #endif
}

// MARK: - Live heap

/// Bytes the allocator has handed out and not taken back, or `nil` where we cannot tell.
///
/// NB: RSS misleads: glibc keeps freed pages. `mallinfo2` sums every arena; `uordblks` is the
/// memory in use in them and `hblkhd` the memory in large blocks served by `mmap`. On Darwin it is the
/// default zone's `size_in_use`.
func liveHeapBytes() -> Int? {
  let bytes = cheap_live_heap_bytes()
  return bytes < 0 ? nil : Int(bytes)
}

func formatBytes(_ bytes: Int?) -> String {
  guard let bytes else { return "n/a" }
  let magnitude = abs(bytes)
  let sign = bytes < 0 ? "-" : ""
  if magnitude >= 1 << 20 { return sign + fixed(Double(magnitude) / Double(1 << 20), 2) + " MiB" }
  if magnitude >= 1 << 10 { return sign + fixed(Double(magnitude) / Double(1 << 10), 1) + " KiB" }
  return sign + "\(magnitude) B"
}

// MARK: - Formatting without Foundation

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return value.isNaN ? "n/a" : "inf" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  let whole = Int(scaled / scale)
  let fraction = Int(scaled - Double(whole) * scale)
  var string = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
  if digits > 0 {
    let digitsString = String(fraction)
    string += "." + String(repeating: "0", count: digits - digitsString.count) + digitsString
  }
  return string
}

/// A figure in ns with 3 significant figures or so.
func ns(_ value: Double) -> String {
  switch abs(value) {
  case ..<10: return fixed(value, 2)
  case ..<100: return fixed(value, 1)
  default: return fixed(value, 0)
  }
}

func padLeft(_ string: String, _ width: Int) -> String {
  String(repeating: " ", count: Swift.max(0, width - string.count)) + string
}

func padRight(_ string: String, _ width: Int) -> String {
  string + String(repeating: " ", count: Swift.max(0, width - string.count))
}

func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
    result.append(digit)
  }
  return result
}

func jsonString(_ string: String) -> String {
  var escaped = "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": escaped += "\\\""
    case "\\": escaped += "\\\\"
    case "\n": escaped += "\\n"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: escaped.unicodeScalars.append(scalar)
    }
  }
  return escaped + "\""
}

func jsonNumber(_ value: Double) -> String {
  value.isFinite ? fixed(value, 3) : "null"
}

// MARK: - Files and the machine

func writeFile(_ path: String, _ contents: String) -> Bool {
  guard let file = fopen(path, "w") else { return false }
  defer { fclose(file) }
  var contents = contents
  return contents.withUTF8 { bytes in
    fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count
  }
}

func readLines(_ path: String) -> [String] {
  guard let file = fopen(path, "r") else { return [] }
  defer { fclose(file) }
  var lines: [String] = []
  var buffer = [CChar](repeating: 0, count: 4096)
  while fgets(&buffer, Int32(buffer.count), file) != nil {
    let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    lines.append(line)
  }
  return lines
}

/// The processor's model name, from /proc/cpuinfo where there is one.
func cpuModel() -> String {
  for line in readLines("/proc/cpuinfo") where line.hasPrefix("model name") {
    if let colon = line.firstIndex(of: ":") {
      return String(line[line.index(after: colon)...]).trimmingWhitespace()
    }
  }
  return "unknown"
}

func processorCount() -> Int {
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  #else
    return 0
  #endif
}

extension String {
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
