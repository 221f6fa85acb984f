import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Measures MiniRedux against the floors it is built on and prints one table.
///
///     swift run -c release --package-path Benchmarks [--quick] [--output PATH] [--repetitions N]
///
/// Exits non-zero only when a correctness check fails, never because of a timing.
@main
@MainActor
struct Benchmarks {
  static let usage = """
    usage: swift run -c release --package-path Benchmarks [options]
      --quick            tiny counts, for CI: checks that the suite builds, runs and is correct
      --output PATH      where to write the JSON figures (default: \(defaultOutput))
      --repetitions N    measured repetitions per scenario, at least 5 (default: 5)
      --only IDS         run only these scenarios, comma-separated (e.g. S1,F2), for profiling
      --ops N            operations per repetition in every scenario (for callgrind: run twice
                         with two counts and divide the difference, see Benchmarks/callgrind)
    """

  /// `results.json` next to this package's manifest, wherever the command is run from.
  static var defaultOutput: String {
    var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Sources/MiniReduxBenchmarks/Benchmarks.swift
    return components.joined(separator: "/") + "/results.json"
  }

  static func main() {
    Task { @MainActor in await run() }
    // NB: Under valgrind, the Swift runtime's first worker thread crashes the tool while the main
    // thread waits in dispatch_main(), which is what an async main does on Linux. Foundation's run
    // loop keeps the main thread draining the main queue instead; Benchmarks/callgrind sets this.
    if getenv("MINIREDUX_BENCHMARKS_RUN_LOOP") != nil {
      RunLoop.main.run()
    } else {
      dispatchMain()
    }
  }

  static func run() async {
    var quick = false
    var output = defaultOutput
    var repetitions = 5
    var only: Set<String>?
    var ops: Int?
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
      switch argument {
      case "--quick":
        quick = true
      case "--output":
        guard let path = arguments.next() else { fail(usage) }
        output = path
      case "--repetitions":
        guard let value = arguments.next().flatMap({ Int($0) }), value >= 5 else { fail(usage) }
        repetitions = value
      case "--only":
        guard let ids = arguments.next() else { fail(usage) }
        only = Set(ids.split(separator: ",").map { $0.uppercased() })
      case "--ops":
        guard let value = arguments.next().flatMap({ Int($0) }), value > 0 else { fail(usage) }
        ops = value
      case "-h", "--help":
        print(usage)
        exit(0)
      default:
        fail("unknown option \(argument)\n" + usage)
      }
    }

    var counts = quick ? Counts.quick : Counts.full
    if let ops { counts.setOperations(ops) }
    var scenarios = Scenarios(counts: counts, repetitions: repetitions)
    let clock = ContinuousClock()
    let start = clock.now

    var rows: [Measurement] = []
    func selected(_ id: String) -> Bool { only.map { $0.contains(id) } ?? true }
    if selected("F1") { rows.append(await scenarios.f1DirectReducer()) }
    if selected("F2") { rows.append(await scenarios.f2ObservationModel()) }
    if selected("F3") { rows.append(await scenarios.f3RoundTrip()) }
    if selected("F5") { rows.append(await scenarios.f5RestartTask()) }
    if selected("S1") { rows.append(await scenarios.s1SmallState()) }
    if selected("S2") { rows.append(await scenarios.s2LargeState()) }
    if selected("S3") { rows.append(await scenarios.s3RoundTrip()) }
    let leak = selected("S4") ? await scenarios.s4Leak() : nil
    if selected("S5A") { rows.append(await scenarios.s5SearchStorm(.cancelInFlight)) }
    if selected("S5B") { rows.append(await scenarios.s5SearchStorm(.debounce)) }
    if selected("S6A") { rows.append(await scenarios.s6Listeners()) }
    if selected("S6B") { rows.append(await scenarios.s6Observers()) }
    if selected("S7") { rows.append(await scenarios.s7ScopedSend()) }
    if selected("S8") { rows.append(await scenarios.s8LongLivedEffect()) }
    if selected("S9") { rows.append(await scenarios.s9Chain()) }
    if selected("S10") { rows.append(await scenarios.s10RowStores()) }
    if selected("S10B") { rows.append(await scenarios.s10OpaqueRowStores()) }
    if selected("S11") { rows.append(await scenarios.s11ScopedLargeState()) }
    if selected("F12") { rows.append(await scenarios.f12PlainList()) }
    if selected("S12") { rows.append(await scenarios.s12ForEachList()) }
    if selected("S12B") { rows.append(await scenarios.s12ForEachShortList()) }
    if selected("S12D") { rows.append(await scenarios.s12ForEachByCase()) }
    if selected("S13") { rows.append(await scenarios.s13FieldViews(scoped: false)) }
    if selected("S13B") { rows.append(await scenarios.s13FieldViews(scoped: true)) }
    if selected("S14") { rows.append(await scenarios.s14NestedWrappers()) }
    if selected("S17") { rows.append(await scenarios.s17DeepCancelInFlight()) }
    for list in Scenarios.rowActionLists where selected(list.id.uppercased()) {
      rows.append(await scenarios.rowAction(list))
    }

    let report = BenchmarkReport(
      mode: quick ? "quick" : "full", repetitions: repetitions, rows: rows,
      leak: leak, checks: scenarios.checks, listeners: counts.listeners,
      seconds: (clock.now - start).nanoseconds / 1e9)
    report.print()
    if writeFile(output, report.json()) {
      Swift.print("\nJSON: \(output)")
    } else {
      Swift.print("\nJSON: could not write \(output)")
    }
    if report.checks.contains(where: { !$0.passed }) {
      Swift.print("A correctness check failed.")
      exit(1)
    }
    exit(0)
  }

  static func fail(_ message: String) -> Never {
    var message = message + "\n"
    message.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(2)
  }
}

/// A target from the issue, judged on medians of this run.
struct Target {
  let description: String
  let figure: String
  let passed: Bool
}

struct BenchmarkReport {
  let mode: String
  let repetitions: Int
  let rows: [Measurement]
  let leak: (inFlight: Int?, heapDelta: Int?, notes: [(String, String)])?
  let checks: [Check]
  let listeners: Int
  let seconds: Double

  func row(_ id: String) -> Measurement? { rows.first { $0.id == id } }

  func ratio(_ row: Measurement) -> Double? {
    guard let floor = row.floor, let floorRow = self.row(floor) else { return nil }
    return row.median / floorRow.median
  }

  func median(_ id: String) -> Double { row(id)?.median ?? .nan }

  /// The targets whose scenarios ran.
  var targets: [Target] {
    let ran = Set(rows.map(\.id))
    let oneResult = { (id: String) in
      checks.first { $0.name.hasPrefix("\(id) exactly one") }?.passed ?? false
    }
    var targets: [Target] = []
    if ran.isSuperset(of: ["S1", "F2"]) {
      let ratio = median("S1") / median("F2")
      targets.append(
        Target(
          description: "S1 send <= 1.5 x F2 Observation floor", figure: "\(fixed(ratio, 2)) x",
          passed: ratio <= 1.5))
    }
    if ran.isSuperset(of: ["S2", "S1"]) {
      let ratio = median("S2") / median("S1")
      targets.append(
        Target(
          description: "S2 / S1 <= 1.2 (send is O(1) in state size)",
          figure: "\(fixed(ratio, 2)) x", passed: ratio <= 1.2))
    }
    if ran.isSuperset(of: ["S3", "F3"]) {
      let ratio = median("S3") / median("F3")
      targets.append(
        Target(
          description: "S3 round trip <= 1.5 x F3 bare round trip",
          figure: "\(fixed(ratio, 2)) x", passed: ratio <= 1.5))
    }
    if let leak {
      targets.append(
        Target(
          description: "S4 zero in-flight entries and < 1 MB live heap held",
          figure: "\(leak.inFlight.map(String.init) ?? "unread") entries, "
            + formatBytes(leak.heapDelta),
          passed: (leak.inFlight ?? 0) == 0 && leak.heapDelta.map { $0 < 1_000_000 } == true))
    }
    for id in ["S5a", "S5b"] where ran.isSuperset(of: [id, "F5"]) {
      let ratio = median(id) / median("F5")
      targets.append(
        Target(
          description: "\(id) exactly one .result, send loop <= 2 x F5",
          figure: "\(fixed(ratio, 2)) x", passed: oneResult(id) && ratio <= 2))
    }
    if ran.contains("S6a") {
      targets.append(
        Target(
          description: "S6a send < 1 us with \(listeners) subscribe listeners",
          figure: "\(ns(median("S6a"))) ns", passed: median("S6a") < 1000))
    }
    if ran.isSuperset(of: ["S12", "F12"]) {
      let ratio = median("S12") / median("F12")
      targets.append(
        Target(
          description: "S12 / F12 <= 1.2 (forEach, no row effects in flight)",
          figure: "\(fixed(ratio, 2)) x", passed: ratio <= 1.2))
    }
    // NB: Issue 39: a row action costs the same at 100,000 rows as at 1,000.
    for (long, short, shape) in [
      ("S15b", "S15a", "Array, no effects"), ("S15d", "S15c", "Array, 100 effects"),
      ("S16b", "S16a", "Dictionary, no effects"), ("S16d", "S16c", "Dictionary, 100 effects"),
    ] where ran.isSuperset(of: [long, short]) {
      let ratio = median(long) / median(short)
      targets.append(
        Target(
          description: "\(long) / \(short) <= 2 (\(shape), 100k/1k rows)",
          figure: "\(fixed(ratio, 2)) x", passed: ratio <= 2))
    }
    return targets
  }

  func print() {
    Swift.print(
      "MiniRedux benchmarks, \(mode) mode: ns per operation over \(repetitions) repetitions "
        + "after 1 warm-up")
    Swift.print(
      "\(processorCount()) x \(cpuModel()); ratio = median / median of the floor\n")
    let header =
      padRight("id", 5) + padRight("scenario", 56) + padLeft("ops/rep", 10) + padLeft("min", 9)
      + padLeft("median", 9) + padLeft("max", 9) + padLeft("floor", 7) + padLeft("ratio", 8)
    Swift.print(header)
    Swift.print(String(repeating: "-", count: header.count))
    for row in rows {
      var line = padRight(row.id, 5) + padRight(row.name, 56) + padLeft(grouped(row.operations), 10)
      line += padLeft(ns(row.min), 9) + padLeft(ns(row.median), 9) + padLeft(ns(row.max), 9)
      if let floor = row.floor, let ratio = ratio(row) {
        line += padLeft(floor, 7) + padLeft(fixed(ratio, 2), 8)
      }
      Swift.print(line)
    }

    Swift.print("")
    for (name, value) in (leak?.notes ?? []) + rows.flatMap(\.notes) {
      Swift.print("\(name): \(value)")
    }
    if let s1 = row("S1"), let s6 = row("S6a") {
      Swift.print(
        "S6a per listener per send: \(ns((s6.median - s1.median) / Double(listeners))) ns")
    }
    if let s1 = row("S1"), let s6 = row("S6b") {
      Swift.print(
        "S6b per observer per send: \(ns((s6.median - s1.median) / Double(listeners))) ns")
    }
    if let f12 = row("F12"), let s12 = row("S12") {
      Swift.print("S12 forEach per send, beyond F12: \(ns(s12.median - f12.median)) ns")
    }

    Swift.print("\nTargets (medians of this run; timings are never asserted):")
    for target in targets {
      Swift.print(
        "  \(target.passed ? "PASS" : "MISS")  \(padRight(target.description, 56)) "
          + target.figure)
    }
    Swift.print("\nCorrectness checks (a FAIL exits non-zero):")
    for check in checks {
      Swift.print("  \(check.passed ? "ok  " : "FAIL")  \(check.name): \(check.detail)")
    }
    Swift.print("\nTotal run time: \(fixed(seconds, 1)) s")
  }

  func json() -> String {
    var lines: [String] = []
    lines.append("{")
    lines.append("  \"mode\": \(jsonString(mode)),")
    lines.append("  \"unit\": \"ns per operation\",")
    lines.append("  \"repetitions\": \(repetitions),")
    lines.append(
      "  \"machine\": {\"processors\": \(processorCount()), \"cpu\": \(jsonString(cpuModel()))},")
    lines.append("  \"scenarios\": [")
    for (index, row) in rows.enumerated() {
      var fields = [
        "\"id\": \(jsonString(row.id))",
        "\"name\": \(jsonString(row.name))",
        "\"operations\": \(row.operations)",
        "\"min\": \(jsonNumber(row.min))",
        "\"median\": \(jsonNumber(row.median))",
        "\"max\": \(jsonNumber(row.max))",
        "\"samples\": [\(row.samples.map(jsonNumber).joined(separator: ", "))]",
      ]
      if let floor = row.floor, let ratio = ratio(row) {
        fields.append("\"floor\": \(jsonString(floor))")
        fields.append("\"ratio\": \(jsonNumber(ratio))")
      }
      lines.append(
        "    {" + fields.joined(separator: ", ") + "}" + (index < rows.count - 1 ? "," : ""))
    }
    lines.append("  ],")
    if let leak {
      let leakFields = [
        "\"inFlightEntries\": \(leak.inFlight.map(String.init) ?? "null")",
        "\"liveHeapHeldBytes\": \(leak.heapDelta.map(String.init) ?? "null")",
      ]
      lines.append("  \"S4\": {" + leakFields.joined(separator: ", ") + "},")
    }
    let notes = rows.flatMap(\.notes).map { "\(jsonString($0.0)): \(jsonString($0.1))" }
    lines.append("  \"notes\": {" + notes.joined(separator: ", ") + "},")
    lines.append("  \"targets\": [")
    for (index, target) in targets.enumerated() {
      lines.append(
        "    {\"target\": \(jsonString(target.description)), "
          + "\"figure\": \(jsonString(target.figure)), \"pass\": \(target.passed)}"
          + (index < targets.count - 1 ? "," : ""))
    }
    lines.append("  ],")
    lines.append("  \"checks\": [")
    for (index, check) in checks.enumerated() {
      lines.append(
        "    {\"check\": \(jsonString(check.name)), \"pass\": \(check.passed), "
          + "\"detail\": \(jsonString(check.detail))}" + (index < checks.count - 1 ? "," : ""))
    }
    lines.append("  ]")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }
}
