import MiniRedux

/// How much work each scenario does per repetition.
struct Counts {
  var sends: Int  // F1, F2, S1
  var largeStateSends: Int  // S2
  var largeStateSize: Int  // S2
  var roundTrips: Int  // F3, S3, S4
  var searches: Int  // S5
  var fanOutSends: Int  // S6
  var listeners: Int  // S6
  var observedSends: Int  // S6b: each send re-tracks every observer, so fewer sends
  var longLived: Int  // S8 messages, S9 links: one run each
  var listSends: Int  // F12, S12, S12b
  var rowSends: Int  // S15, S16 at 1,000 rows
  var longListRowSends: Int  // S15, S16 at 100,000 rows, S15e

  static let full = Counts(
    sends: 1_000_000, largeStateSends: 10_000, largeStateSize: 100_000, roundTrips: 100_000,
    searches: 100_000, fanOutSends: 100_000, listeners: 100, observedSends: 10_000,
    longLived: 1_000_000, listSends: 100_000, rowSends: 1_000, longListRowSends: 100)

  /// Makes every scenario perform `n` operations per repetition (state and listener sizes stay).
  mutating func setOperations(_ n: Int) {
    sends = n
    largeStateSends = n
    roundTrips = n
    searches = n
    fanOutSends = n
    observedSends = n
    longLived = n
    listSends = n
    rowSends = n
    longListRowSends = n
  }

  static let quick = Counts(
    sends: 10_000, largeStateSends: 1_000, largeStateSize: 100_000, roundTrips: 1_000,
    searches: 10_000, fanOutSends: 1_000, listeners: 100, observedSends: 100, longLived: 2_000,
    listSends: 10_000, rowSends: 100, longListRowSends: 2)
}

/// A correctness check: CI fails on these, never on timings.
struct Check {
  let name: String
  let passed: Bool
  let detail: String
}

@MainActor
struct Scenarios {
  let counts: Counts
  let repetitions: Int
  var checks: [Check] = []

  // NB: Every hot loop is a synchronous, non-inlined function: locals of an async function can
  // live in its heap-allocated context, which would add loads and stores to what we measure.

  // MARK: F1 direct reducer call

  mutating func f1DirectReducer() async -> Measurement {
    let reducer = opaqueReducer(Counter.reduce)
    let action = opaque(Counter.Action.increment)
    let n = counts.sends
    var state = Counter.State()
    let result = await measure(
      "F1", "reducer closure called directly", operations: n, repetitions: repetitions
    ) {
      Self.loopDirect(reducer, &state, action, n)
    }
    blackHole(state.count)
    return result
  }

  @inline(never)
  static func loopDirect(
    _ reducer: @MainActor (inout Counter.State, Counter.Action) -> Effect<Counter.Action>,
    _ state: inout Counter.State, _ action: Counter.Action, _ n: Int
  ) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<n {
      _ = reducer(&state, action)
    }
    return clock.now - start
  }

  // MARK: F2 Observation floor

  mutating func f2ObservationModel() async -> Measurement {
    let model = ObservedModel(initialState: Counter.State(), opaqueReducer(Counter.reduce))
    let action = opaque(Counter.Action.increment)
    let n = counts.sends
    let result = await measure(
      "F2", "Observation model, _modify + stored key path", operations: n,
      repetitions: repetitions
    ) {
      Self.loopModel(model, action, n)
    }
    blackHole(model.state.count)
    return result
  }

  @inline(never)
  static func loopModel(
    _ model: ObservedModel<Counter.State, Counter.Action>, _ action: Counter.Action, _ n: Int
  ) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<n {
      model.send(action)
    }
    return clock.now - start
  }

  // MARK: F3 bare round trip

  mutating func f3RoundTrip() async -> Measurement {
    let tally = Tally()
    let n = counts.roundTrips
    let result = await measure(
      "F3", "Task.detached, hop to main, increment, await", operations: n,
      repetitions: repetitions
    ) {
      await timed {
        for _ in 0..<n {
          await Task.detached { await tally.increment() }.value
        }
      }
    }
    blackHole(tally.value)
    return result
  }

  // MARK: F5 cancel and restart a bare task

  /// What S5a does per send, with nothing but tasks: cancel the previous task, then start one
  /// that sleeps 5 ms and hops to the main actor. Timed like S5: the loop of starts only.
  mutating func f5RestartTask() async -> Measurement {
    let tally = Tally()
    let n = counts.searches
    let result = await measure(
      "F5", "cancel previous Task, start one: sleep 5 ms, hop to main", operations: n,
      repetitions: repetitions
    ) {
      let (elapsed, last) = Self.loopRestart(tally, n)
      await last.value
      return elapsed
    }
    blackHole(tally.value)
    return result
  }

  @inline(never)
  static func loopRestart(_ tally: Tally, _ n: Int) -> (Duration, Task<Void, Never>) {
    let clock = ContinuousClock()
    var previous: Task<Void, Never>?
    let start = clock.now
    for query in 0..<n {
      previous?.cancel()
      previous = Task.detached {
        do { try await ContinuousClock().sleep(for: .milliseconds(5)) } catch { return }
        await tally.add(query)
      }
    }
    return (clock.now - start, previous!)
  }

  // MARK: S1 sync send, small state

  mutating func s1SmallState() async -> Measurement {
    let store = Store(initialState: Counter.State(), opaqueReducer(Counter.reduce))
    let action = opaque(Counter.Action.increment)
    let n = counts.sends
    let result = await measure(
      "S1", "send, small state (count += 1)", operations: n, repetitions: repetitions,
      floor: "F2"
    ) {
      Self.loopStore(store, action, n)
    }
    blackHole(store.state.count)
    checks.append(
      Check(
        name: "S1 reduced every send",
        passed: store.state.count == n * (repetitions + 1),
        detail: "count \(store.state.count), expected \(n * (repetitions + 1))"))
    return result
  }

  @inline(never)
  static func loopStore<State, Action>(
    _ store: Store<State, Action>, _ action: Action, _ n: Int
  ) -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<n {
      store.send(action)
    }
    return clock.now - start
  }

  // MARK: S2 sync send, large state

  mutating func s2LargeState() async -> Measurement {
    let size = opaque(counts.largeStateSize)
    let store = Store(
      initialState: Inventory.State(items: Array(repeating: 0, count: size)),
      opaqueReducer(Inventory.reduce))
    let action = opaque(Inventory.Action.bumpFirst)
    let n = counts.largeStateSends
    let result = await measure(
      "S2", "send, \(grouped(size))-element array (items[0] += 1)", operations: n,
      repetitions: repetitions, floor: "S1"
    ) {
      Self.loopStore(store, action, n)
    }
    blackHole(store.state.items[0])
    return result
  }

  // MARK: S3 effect round trip

  mutating func s3RoundTrip() async -> Measurement {
    let store = Store(initialState: RoundTrip.State(), RoundTrip.reduce)
    let n = counts.roundTrips
    let result = await measure(
      "S3", "effect round trip, await send(.start).finish()", operations: n,
      repetitions: repetitions, floor: "F3"
    ) {
      await timed {
        for _ in 0..<n {
          await store.send(.start).finish()
        }
      }
    }
    checks.append(
      Check(
        name: "S3 reduced every .done",
        passed: store.state.done == n * (repetitions + 1),
        detail: "done \(store.state.done), expected \(n * (repetitions + 1))"))
    return result
  }

  // MARK: S14 an effect under nested wrappers

  /// One send whose reducer returns a `.run` under `n` `cancellable` wrappers, each with an id of
  /// its own, awaited: the inner third each in a `merge` with a `.send`, the middle third each the
  /// first step of a `concatenate` before a `.send`, the outer third a chain. Per wrapper:
  /// building it, starting what is under it, registering and unregistering its id, moving on
  /// and ending, and releasing it. Linear at any depth, so this stays flat as n grows.
  mutating func s14NestedWrappers() async -> Measurement {
    let n = opaque(counts.roundTrips)
    let store = Store<Int, Bool>(initialState: 0) { count, isStart in
      guard isStart else {
        count += 1
        return .none
      }
      var effect = Effect<Bool>.run { send in await send(false) }
      for id in 0..<n / 3 { effect = .merge(effect.cancellable(id: id), .send(false)) }
      for id in n / 3..<2 * n / 3 {
        effect = .concatenate(effect.cancellable(id: id), .send(false))
      }
      for id in 2 * n / 3..<n { effect = effect.cancellable(id: id) }
      return effect
    }
    let result = await measure(
      "S14", "an effect under \(grouped(n)) nested cancellable wrappers, per wrapper",
      operations: n, repetitions: repetitions, floor: "S1"
    ) {
      await timed { await store.send(true).finish() }
    }
    checks.append(
      Check(
        name: "S14 every action under the wrappers was reduced, and no effect is left in flight",
        passed: store.state == (2 * n / 3 + 1) * (repetitions + 1)
          && (inFlightEffects(store) ?? 0) == 0,
        detail: "reduced \(store.state) of \((2 * n / 3 + 1) * (repetitions + 1)), in flight "
          + described(inFlightEffects(store))))
    return result
  }

  // MARK: S17 a cancelInFlight deep inside an effect, over many effects under its id

  /// One send whose reducer returns `n` nested groups under one id around a `.run` that stays in
  /// flight, then one whose reducer returns a `cancelInFlight` under that id inside `n` nested
  /// groups under ids of their own, which cancels the first send's groups; both awaited. One
  /// operation is a pair, a group under the id and a level above the `cancelInFlight`: building,
  /// starting and ending both, and the `cancelInFlight`'s look at them. M groups under the id and
  /// D levels cost M + D, so this stays flat as n grows; the code that climbed from the
  /// `cancelInFlight` once per group under its id cost M·D (1.66 times the count at 1,000 to 3,000).
  mutating func s17DeepCancelInFlight() async -> Measurement {
    let n = opaque(counts.roundTrips)
    let store = Store(initialState: 0, opaqueReducer(Replacement.reducer(members: n, depth: n)))
    let result = await measure(
      "S17", "a cancelInFlight \(grouped(n)) groups deep over \(grouped(n)) under its id, per pair",
      operations: n, repetitions: repetitions, floor: "S14"
    ) {
      await timed {
        let started = store.send(.start)
        await store.send(.replace).finish()
        await started.finish()
      }
    }
    checks.append(
      Check(
        name: "S17 every action in the groups was reduced, and no effect is left in flight",
        passed: store.state == 2 * n * (repetitions + 1) && (inFlightEffects(store) ?? 0) == 0,
        detail: "reduced \(store.state) of \(2 * n * (repetitions + 1)), in flight "
          + described(inFlightEffects(store))))
    return result
  }

  // MARK: S4 leak

  /// In-flight entries and live heap before and after `roundTrips` effects, store alive.
  mutating func s4Leak() async -> (inFlight: Int?, heapDelta: Int?, notes: [(String, String)]) {
    let store = Store(initialState: RoundTrip.State(), RoundTrip.reduce)
    let n = counts.roundTrips
    // NB: One round trip first, so storage that is made once (the registry's buffer, the
    // runtime's caches) is in the baseline.
    for _ in 0..<100 { await store.send(.start).finish() }
    let before = liveHeapBytes()
    for _ in 0..<n { await store.send(.start).finish() }
    let after = liveHeapBytes()
    let inFlight = inFlightEffects(store)
    let ids = indexedEffectIDs(store)
    let delta = before.flatMap { before in after.map { $0 - before } }
    blackHole(store)
    checks.append(
      Check(
        name: "S4 no in-flight entries after \(grouped(n)) effects",
        passed: (inFlight ?? 0) == 0 && (ids ?? 0) == 0,
        detail: "effects \(described(inFlight)), ids \(described(ids))"))
    return (
      inFlight, delta,
      [
        ("S4 in-flight entries after \(grouped(n)) effects", inFlight.map(String.init) ?? "n/a"),
        (
          "S4 live heap before / after / held",
          "\(formatBytes(before)) / \(formatBytes(after)) / \(formatBytes(delta))"
        ),
      ]
    )
  }

  // MARK: S5 search storm

  mutating func s5SearchStorm(_ strategy: Search.Strategy) async -> Measurement {
    let id = strategy == .cancelInFlight ? "S5a" : "S5b"
    let n = counts.searches
    var results: [Int] = []
    var lastResults: [Int] = []
    var inFlight: [Int?] = []
    var held: [Int] = []
    var settle: [Double] = []
    var onCPU: [Double] = []
    var result = await measure(
      id,
      strategy == .cancelInFlight
        ? "search storm, .cancellable(cancelInFlight:), send loop"
        : "search storm, .debounce(id:for:clock:), send loop",
      operations: n, repetitions: repetitions, floor: "F5"
    ) {
      let before = liveHeapBytes()
      let store = Store(initialState: Search.State(), Search.reducer(strategy))
      let cpuStart = threadCPUNanoseconds()
      let (elapsed, last) = Self.loopSearch(store, n)
      onCPU.append((threadCPUNanoseconds() - cpuStart) / Double(n))
      // NB: Settling is not part of the send loop; it is reported on its own.
      let settled = await timed { await last.finish() }
      settle.append(settled.nanoseconds)
      // Let the cancelled effects' last hops to the main actor run before reading the heap.
      try? await Task.sleep(for: .milliseconds(20))
      if let before, let after = liveHeapBytes() { held.append(after - before) }
      results.append(store.state.results)
      lastResults.append(store.state.lastResult)
      inFlight.append(inFlightEffects(store))
      return elapsed
    }
    let oneResult = results.allSatisfy { $0 == 1 } && lastResults.allSatisfy { $0 == n - 1 }
    checks.append(
      Check(
        name: "\(id) exactly one .result (the last query) per storm",
        passed: oneResult,
        detail: "results per storm \(results), last result \(lastResults.last ?? -1)"))
    checks.append(
      Check(
        name: "\(id) no in-flight entries after settling",
        passed: inFlight.allSatisfy { ($0 ?? 0) == 0 },
        detail: "in flight per storm \(inFlight.map(described))"))
    // NB: The store keeps no buffer sized by the burst once the burst is over (one of 10,000 sends
    // holds 160 KiB or more): it would show in every repetition, so the least held counts, as one
    // reading also counts the freed blocks glibc's per-thread caches keep (up to 72 KiB seen).
    checks.append(
      Check(
        name: "\(id) live heap held after settling < 64 KiB (the least of the repetitions)",
        passed: held.min().map { $0 < 64 << 10 } ?? true,
        detail: held.map { formatBytes($0) }.joined(separator: ", ")))
    result.notes = [
      ("\(id) .result actions reduced per storm", "\(results)"),
      ("\(id) send loop, main thread on-CPU time per send, median", "\(ns(median(onCPU))) ns"),
      ("\(id) settle after the loop (finish() on the last task), median", ms(median(settle))),
      ("\(id) live heap held after settling, store alive", formatBytes(held.min())),
    ]
    return result
  }

  @inline(never)
  static func loopSearch(
    _ store: Store<Search.State, Search.Action>, _ n: Int
  ) -> (Duration, StoreTask) {
    let clock = ContinuousClock()
    var last = StoreTask?.none
    let start = clock.now
    for query in 0..<n {
      last = store.send(.query(query))
    }
    let elapsed = clock.now - start
    return (elapsed, last!)
  }

  // MARK: S6 fan-out

  mutating func s6Listeners() async -> Measurement {
    let store = Store(initialState: Counter.State(), opaqueReducer(Counter.reduce))
    // NB: The listeners add to memory behind a pointer: as cheap as a listener that does
    // something can be (a class property would add an exclusivity check to every call).
    let sink = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    sink.initialize(to: 0)
    defer { sink.deallocate() }
    let subscriptions = (0..<counts.listeners).map { _ in
      store.subscribe { state in sink.pointee &+= state.count }
    }
    let action = opaque(Counter.Action.increment)
    let n = counts.fanOutSends
    let result = await measure(
      "S6a", "send, \(counts.listeners) subscribe listeners", operations: n,
      repetitions: repetitions, floor: "S1"
    ) {
      Self.loopStore(store, action, n)
    }
    for subscription in subscriptions { subscription.cancel() }
    blackHole(sink.pointee)
    return result
  }

  mutating func s6Observers() async -> Measurement {
    let store = Store(initialState: Counter.State(), opaqueReducer(Counter.reduce))
    let tally = Tally()
    let observers = (0..<counts.listeners).map { _ in Observer(store: store, tally: tally) }
    for observer in observers { observer.track() }
    let action = opaque(Counter.Action.increment)
    let n = counts.observedSends
    let result = await measure(
      "S6b", "send, \(counts.listeners) withObservationTracking observers", operations: n,
      repetitions: repetitions, floor: "S1"
    ) {
      Self.loopStore(store, action, n)
    }
    let expected = counts.listeners * n * (repetitions + 1)
    checks.append(
      Check(
        name: "S6b every observer saw every send",
        passed: tally.value == expected,
        detail: "onChange calls \(tally.value), expected \(expected)"))
    blackHole(observers)
    return result
  }

  // MARK: S7 scoped send

  /// A parent embedding the counter: S7 sends to a store scoped to it; S1 is its floor, so the
  /// ratio is the cost of scoping (one action embedding, one `map` of `.none`).
  struct Parent {
    struct State { var child = Counter.State() }
    enum Action: Sendable { case child(Counter.Action) }

    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .child(let action):
        return Counter.reduce(&state.child, action).map(Action.child)
      }
    }
  }

  mutating func s7ScopedSend() async -> Measurement {
    let parent = Store(initialState: Parent.State(), opaqueReducer(Parent.reduce))
    let child = parent.scope(state: \.child, action: Parent.Action.child)
    let action = opaque(Counter.Action.increment)
    let n = counts.sends
    let result = await measure(
      "S7", "scoped send, small child state", operations: n, repetitions: repetitions,
      floor: "S1"
    ) {
      Self.loopStore(child, action, n)
    }
    checks.append(
      Check(
        name: "S7 reduced every scoped send in the parent",
        passed: parent.state.child.count == n * (repetitions + 1),
        detail: "count \(parent.state.child.count), expected \(n * (repetitions + 1))"))
    return result
  }
}

extension Scenarios {
  // MARK: S8 long-lived effect, S9 chain

  /// One measured run: a warm-up of 10,000 operations first, then `counts.longLived`, with the
  /// live heap read at the 20,000th and 220,000th operation when the run is that long.
  mutating func s8LongLivedEffect() async -> Measurement {
    let n = counts.longLived
    let probe = HeapProbe()
    let warmUp = Store(initialState: Stream.State(), Stream.reducer(HeapProbe()))
    await warmUp.send(.listen(10_000)).finish()
    let store = Store(initialState: Stream.State(), Stream.reducer(probe))
    let elapsed = await timed { await store.send(.listen(n)).finish() }
    var result = Measurement(
      id: "S8", name: "long-lived effect: a message, each starting an effect", operations: n,
      samples: [elapsed.nanoseconds / Double(n)], floor: "S3")
    result.notes = heapNotes("S8", "message", probe)
    checks.append(
      Check(
        name: "S8 every message reduced and every effect ended",
        passed: store.state.received == n && (inFlightEffects(store) ?? 0) == 0,
        detail: "received \(store.state.received) of \(n), in flight "
          + described(inFlightEffects(store))))
    appendHeapCheck("S8", "message", probe)
    return result
  }

  mutating func s9Chain() async -> Measurement {
    let n = counts.longLived
    let probe = HeapProbe()
    let warmUp = Store(initialState: Chain.State(), Chain.reducer(10_000, HeapProbe()))
    await warmUp.send(.tick(0)).finish()
    let store = Store(initialState: Chain.State(), Chain.reducer(n, probe))
    let elapsed = await timed { await store.send(.tick(0)).finish() }
    var result = Measurement(
      id: "S9", name: "chain: each link's effect sends the next tick", operations: n,
      samples: [elapsed.nanoseconds / Double(n)], floor: "S3")
    result.notes = heapNotes("S9", "link", probe)
    checks.append(
      Check(
        name: "S9 the chain's first task finished with its last link",
        passed: store.state.links == n && (inFlightEffects(store) ?? 0) == 0,
        detail: "links \(store.state.links) of \(n), in flight "
          + described(inFlightEffects(store))))
    appendHeapCheck("S9", "link", probe)
    return result
  }

  func heapNotes(_ id: String, _ unit: String, _ probe: HeapProbe) -> [(String, String)] {
    guard let growth = probe.growth else {
      return [("\(id) live heap growth, \(unit) 20,000 to 220,000", "n/a (run too short)")]
    }
    return [
      (
        "\(id) live heap growth, \(unit) 20,000 to 220,000",
        "\(formatBytes(growth)), \(fixed(Double(growth) / 200_000, 3)) B per \(unit)"
      )
    ]
  }

  /// The issue's bound: under 1 MiB of growth from the 20,000th to the 220,000th operation.
  mutating func appendHeapCheck(_ id: String, _ unit: String, _ probe: HeapProbe) {
    guard let growth = probe.growth else { return }
    checks.append(
      Check(
        name: "\(id) live heap grows < 1 MiB from \(unit) 20,000 to 220,000",
        passed: growth < 1 << 20, detail: formatBytes(growth)))
  }
}

func median(_ values: [Double]) -> Double {
  Measurement(id: "", name: "", operations: 1, samples: values).median
}

func ms(_ nanoseconds: Double) -> String {
  fixed(nanoseconds / 1e6, 1) + " ms"
}

extension Scenarios {
  // MARK: S10 row stores, S11 a scope holding a large collection

  /// S10: how many row stores are scoped from the list.
  static let rowCount = 1_000

  /// The shared tally of S10's row observers: how many fired, and the row of the last one.
  @MainActor
  final class RowTally {
    var fired = 0
    var lastRow = -1
  }

  /// S10: 1,000 row stores scoped from one list store, each observed with
  /// `withObservationTracking` re-registered in `onChange`; each send renames one row.
  mutating func s10RowStores() async -> Measurement {
    let rows = Self.rowCount
    let store = Store(
      initialState: RowList.State(
        rows: Array(repeating: RowList.Row(), count: rows), opaqueRows: []),
      opaqueReducer(RowList.reduce))
    let tally = RowTally()
    let observers = (0..<rows).map { index in
      RowObserver(
        store: store.scope(state: { $0.rows[index] }, action: { _ in .rename(index) }),
        tally: tally, row: index)
    }
    for observer in observers { observer.track() }
    let n = counts.observedSends
    let result = await measure(
      "S10", "send renaming 1 of \(grouped(rows)) observed row stores", operations: n,
      repetitions: repetitions, floor: "S1"
    ) {
      Self.loopRename(store, rows, n, opaque: false)
    }
    let sends = n * (repetitions + 1)
    // Then one send per row, each checked on its own: exactly its row's observer fired.
    var wrong: [String] = []
    for row in 0..<rows {
      let before = tally.fired
      store.send(.rename(row))
      if tally.fired != before + 1 || tally.lastRow != row {
        wrong.append("row \(row): \(tally.fired - before) fired, last \(tally.lastRow)")
      }
    }
    checks.append(
      Check(
        name: "S10 exactly 1 observer fired per send, the renamed row's",
        passed: wrong.isEmpty && tally.fired == sends + rows,
        detail: "\(grouped(tally.fired)) fired for \(grouped(sends + rows)) sends"
          + (wrong.isEmpty ? "" : "; " + wrong.prefix(3).joined(separator: "; "))))
    blackHole(observers)
    return result
  }

  /// S10b: S10 with rows that are not `Equatable`: every row's observer hears of every send.
  mutating func s10OpaqueRowStores() async -> Measurement {
    let rows = Self.rowCount
    let store = Store(
      initialState: RowList.State(
        rows: [], opaqueRows: Array(repeating: RowList.OpaqueRow(), count: rows)),
      opaqueReducer(RowList.reduce))
    let tally = RowTally()
    let observers = (0..<rows).map { index in
      RowObserver(
        store: store.scope(state: { $0.opaqueRows[index] }, action: { _ in .renameOpaque(index) }),
        tally: tally, row: index)
    }
    for observer in observers { observer.track() }
    // NB: Each send re-tracks all 1,000 observers (about a millisecond): fewer sends than S10.
    let n = Swift.max(1, counts.observedSends / 50)
    var result = await measure(
      "S10b", "S10 with rows not Equatable (every row notified)", operations: n,
      repetitions: repetitions, floor: "S10"
    ) {
      Self.loopRename(store, rows, n, opaque: true)
    }
    let sends = n * (repetitions + 1)
    result.notes = [
      ("S10b observers fired per send", fixed(Double(tally.fired) / Double(sends), 1))
    ]
    blackHole(observers)
    return result
  }

  @inline(never)
  static func loopRename(
    _ store: Store<RowList.State, RowList.Action>, _ rows: Int, _ n: Int, opaque: Bool
  ) -> Duration {
    let clock = ContinuousClock()
    var row = 0
    let start = clock.now
    for _ in 0..<n {
      store.send(opaque ? .renameOpaque(row) : .rename(row))
      row += 1
      if row == rows { row = 0 }
    }
    return clock.now - start
  }

  /// S13: ten views, each reading one field through the store (`store.f3`), and a send editing
  /// one field (round robin): one view hears of it. S13b does the same with today's workaround,
  /// a scoped store with `Equatable` state per view.
  mutating func s13FieldViews(scoped: Bool) async -> Measurement {
    let store = Store(initialState: Form.State(), opaqueReducer(Form.reduce))
    let tally = RowTally()
    let observers = (0..<Form.fieldCount).map { index in
      let path = Form.field(index)
      let read: @MainActor () -> Int
      if scoped {
        let field = store.scope(
          state: { $0[keyPath: path] }, action: { (action: Form.Action) in action })
        read = { field.state }
      } else {
        read = { store[dynamicMember: path] }
      }
      return FieldObserver(read: read, tally: tally, field: index)
    }
    for observer in observers { observer.track() }
    let n = counts.fanOutSends
    let id = scoped ? "S13B" : "S13"
    let result = await measure(
      id, scoped ? "S13 with a scoped store per view" : "send editing 1 of 10 fields, 10 views",
      operations: n, repetitions: repetitions, floor: scoped ? "S13" : "S1"
    ) {
      Self.loopEdit(store, n)
    }
    // Then one send per field, each checked on its own: exactly its view's observer fired.
    var wrong: [String] = []
    for field in 0..<Form.fieldCount {
      let before = tally.fired
      store.send(.edit(field))
      if tally.fired != before + 1 || tally.lastRow != field {
        wrong.append("field \(field): \(tally.fired - before) fired, last \(tally.lastRow)")
      }
    }
    let sends = n * (repetitions + 1) + Form.fieldCount
    checks.append(
      Check(
        name: "\(id) exactly 1 view's observer fired per send, the edited field's",
        passed: wrong.isEmpty && tally.fired == sends,
        detail: "\(grouped(tally.fired)) fired for \(grouped(sends)) sends"
          + (wrong.isEmpty ? "" : "; " + wrong.prefix(3).joined(separator: "; "))))
    blackHole(observers)
    return result
  }

  @inline(never)
  static func loopEdit(_ store: Store<Form.State, Form.Action>, _ n: Int) -> Duration {
    let clock = ContinuousClock()
    var field = 0
    let start = clock.now
    for _ in 0..<n {
      store.send(.edit(field))
      field += 1
      if field == Form.fieldCount { field = 0 }
    }
    return clock.now - start
  }

  /// S11: S2's send (`items[0] += 1` on a 100,000-element array) with the array inside a child
  /// state that a live scope with `Equatable` state holds: each send copies the array.
  mutating func s11ScopedLargeState() async -> Measurement {
    let size = opaque(counts.largeStateSize)
    let store = Store(
      initialState: Catalog.State(child: Catalog.Child(items: Array(repeating: 0, count: size))),
      opaqueReducer(Catalog.reduce))
    let child = store.scope(state: \.child, action: { (action: Catalog.Action) in action })
    let n = counts.largeStateSends
    var result = await measure(
      "S11", "S2 with an Equatable scope of the array alive", operations: n,
      repetitions: repetitions, floor: "S2"
    ) {
      Self.loopStore(store, opaque(Catalog.Action.bumpFirst), n)
    }
    let sends = n * (repetitions + 1)
    checks.append(
      Check(
        name: "S11 the scope reads every send's change",
        passed: child.state.items[0] == sends,
        detail: "items[0] \(child.state.items[0]), expected \(sends)"))
    // NB: With the first element changed, `==` stops at once; with the last, it reads it all.
    let last = await measure(
      "S11", "", operations: n, repetitions: repetitions
    ) {
      Self.loopStore(store, opaque(Catalog.Action.bumpLast), n)
    }
    result.notes = [
      (
        "S11 the same, changing the last element (== reads the whole array)",
        "\(ns(last.median)) ns"
      )
    ]
    blackHole(child)
    return result
  }
}

extension Scenarios {
  // MARK: S12 a send to a list embedded with forEach, F12 its floor

  /// S12, F12: how many rows the list holds.
  static let listRowCount = 10_000

  static func checklist(
    _ reducer: @escaping Reducer<Checklist.State, Checklist.Action>, rows: Int = listRowCount
  ) -> Store<Checklist.State, Checklist.Action> {
    let rows = opaque(rows)
    return Store(
      initialState: Checklist.State(rows: (0..<rows).map { Checklist.Row(id: $0) }),
      opaqueReducer(reducer))
  }

  /// F12: S12's store and send with the parent's reducer alone, no `forEach`.
  mutating func f12PlainList() async -> Measurement {
    let store = Self.checklist(Checklist.core)
    let n = counts.listSends
    let result = await measure(
      "F12", "send, \(grouped(Self.listRowCount))-row list, parent reducer alone", operations: n,
      repetitions: repetitions
    ) {
      Self.loopStore(store, opaque(Checklist.Action.bump), n)
    }
    checks.append(
      Check(
        name: "F12 reduced every send",
        passed: store.state.bumps == n * (repetitions + 1),
        detail: "bumps \(store.state.bumps), expected \(n * (repetitions + 1))"))
    return result
  }

  /// S12: a send of a parent action (the counter) to a list of 10,000 rows embedded with
  /// `forEach`, no row effect in flight: `forEach` runs the parent, then looks for rows with
  /// effects in flight that went away, which with none in flight must cost nothing per row.
  mutating func s12ForEachList() async -> Measurement {
    let store = Self.checklist(Checklist.embedded())
    let n = counts.listSends
    let result = await measure(
      "S12", "F12 with the rows embedded by forEach, none in flight", operations: n,
      repetitions: repetitions, floor: "F12"
    ) {
      Self.loopStore(store, opaque(Checklist.Action.bump), n)
    }
    checks.append(
      Check(
        name: "S12 reduced every send",
        passed: store.state.bumps == n * (repetitions + 1),
        detail: "bumps \(store.state.bumps), expected \(n * (repetitions + 1))"))
    // Then a row action: forEach reduces it in its row and nowhere else, and leaves no effect.
    let last = Self.listRowCount - 1
    store.send(.row(last, .rename))
    let rows = store.state.rows
    let renamed = rows.indices.filter { rows[$0].title != 0 }
    checks.append(
      Check(
        name: "S12 a row action reaches its row only, no effect in flight",
        passed: renamed == [last] && rows.count == Self.listRowCount
          && (inFlightEffects(store) ?? 0) == 0,
        detail: "rows changed \(renamed), in flight \(described(inFlightEffects(store)))"))
    return result
  }

  /// S12d: S12 with the rows embedded by `Reduce.forEach` with no extract closure: what reading
  /// each action's case at run time costs a parent's send.
  mutating func s12ForEachByCase() async -> Measurement {
    let store = Self.checklist(Checklist.embeddedByCase())
    let n = counts.listSends
    let result = await measure(
      "S12d", "S12 with the action's case read at run time, no extract closure", operations: n,
      repetitions: repetitions, floor: "F12"
    ) {
      Self.loopStore(store, opaque(Checklist.Action.bump), n)
    }
    store.send(.row(7, .rename))
    let renamed = store.state.rows.indices.filter { store.state.rows[$0].title != 0 }
    checks.append(
      Check(
        name: "S12d reduced every send, and a row action in its row only",
        passed: store.state.bumps == n * (repetitions + 1) && renamed == [7],
        detail: "bumps \(store.state.bumps), expected \(n * (repetitions + 1)); rows \(renamed)"))
    return result
  }

  /// S12b: S12 with 10 rows: what `forEach` adds to a send must not depend on the row count.
  mutating func s12ForEachShortList() async -> Measurement {
    let store = Self.checklist(Checklist.embedded(), rows: 10)
    let n = counts.listSends
    let result = await measure(
      "S12b", "S12 with 10 rows", operations: n, repetitions: repetitions, floor: "S12"
    ) {
      Self.loopStore(store, opaque(Checklist.Action.bump), n)
    }
    checks.append(
      Check(
        name: "S12b reduced every send",
        passed: store.state.bumps == n * (repetitions + 1),
        detail: "bumps \(store.state.bumps), expected \(n * (repetitions + 1))"))
    return result
  }
}

extension Scenarios {
  // MARK: S15, S16 a row action in a list embedded with Reduce.forEach

  /// S15, S16: a list whose row action is measured: where its rows are, how many there are, and
  /// how many run an effect.
  struct RowActionList {
    let id: String
    let inDictionary: Bool
    let rows: Int
    let running: Int
    var floor: String?
  }

  /// S15 holds the rows in an `Array`, S16 in a `Dictionary`: a and b with no row running an
  /// effect, c and d with 100; a and c at 1,000 rows, b and d at 100,000. S15e, 10,000 rows with
  /// 100 running, is for callgrind.
  static let rowActionLists = [
    RowActionList(id: "S15a", inDictionary: false, rows: 1_000, running: 0),
    RowActionList(id: "S15b", inDictionary: false, rows: 100_000, running: 0, floor: "S15a"),
    RowActionList(id: "S15c", inDictionary: false, rows: 1_000, running: 100, floor: "S15a"),
    RowActionList(id: "S15d", inDictionary: false, rows: 100_000, running: 100, floor: "S15c"),
    RowActionList(id: "S15e", inDictionary: false, rows: 10_000, running: 100, floor: "S15c"),
    RowActionList(id: "S16a", inDictionary: true, rows: 1_000, running: 0, floor: "S15a"),
    RowActionList(id: "S16b", inDictionary: true, rows: 100_000, running: 0, floor: "S16a"),
    RowActionList(id: "S16c", inDictionary: true, rows: 1_000, running: 100, floor: "S16a"),
    RowActionList(id: "S16d", inDictionary: true, rows: 100_000, running: 100, floor: "S16c"),
  ]

  /// S15, S16: a row action in `list`, embedded with `.forEach(\.rows, …)` for an `Array` and
  /// `.forEach(\.rows.values, …)` for a `Dictionary` keyed by id.
  mutating func rowAction(_ list: RowActionList) async -> Measurement {
    let (rows, running) = (opaque(list.rows), list.running)
    // NB: While a row is found by a search, a send to a long list is slow: fewer sends.
    let n = list.rows > 1_000 ? counts.longListRowSends : counts.rowSends
    let name =
      "row action, \(grouped(rows)) rows in \(list.inDictionary ? "a Dictionary" : "an Array"), "
      + (running == 0 ? "none" : "\(running)") + " running"
    guard list.inDictionary else {
      return await rowActionInList(
        list.id, name, full: (0..<rows).map { Roster.Row(id: $0) },
        path: \Roster.ArrayState.rows,
        keeping: { rows, ids in rows.filter { ids.contains($0.id) } }, running: running, sends: n,
        floor: list.floor)
    }
    return await rowActionInList(
      list.id, name,
      full: Dictionary(uniqueKeysWithValues: (0..<rows).map { ($0, Roster.Row(id: $0)) }),
      path: \Roster.DictionaryState.rows.values,
      keeping: { rows, ids in rows.filter { ids.contains($0.key) } }, running: running, sends: n,
      floor: list.floor)
  }

  /// The send of one row's action (`title += 1`, no effect) to the row in the middle of the list
  /// at `path`, with `running` rows, spread evenly over it, each running an effect that stays
  /// suspended; `keeping` makes a list of some of `full`'s rows. Checks that every send changed
  /// its row and no other, and that the effects were in flight throughout.
  mutating func rowActionInList<State: RosterState, Embedded: MutableCollection>(
    _ id: String, _ name: String, full: State.Rows,
    path: WritableKeyPath<State, Embedded> & Sendable,
    keeping: (State.Rows, Set<Int>) -> State.Rows, running: Int, sends n: Int, floor: String?
  ) async -> Measurement where Embedded.Element == Roster.Row {
    // NB: Rows picked by position, as a dictionary's order is its hashes': the measured row is
    // halfway through what a search would walk, and none of the running rows.
    let order = State(rows: full)[keyPath: path].map(\.id)
    let middle = order[order.count / 2]
    let runningIDs = (0..<running).map {
      order[$0 * order.count / running + order.count / (2 * running)]
    }
    let (started, startedContinuation) = AsyncStream<Void>.makeStream()
    // NB: The effects start in a list of their rows alone, which then gets all its rows in one
    // send: started in the full list, each start would cost what a measured send does, and the
    // setup of a long list would take longer than its measurement.
    let store = Store(
      initialState: State(rows: keeping(full, Set(runningIDs))),
      Roster.reducer(path, full: full, started: startedContinuation))
    for row in runningIDs { store.send(.row(row, .start)) }
    // Wait for each effect to reach its sleep, a minute at most.
    var startedCount = 0
    if running > 0 {
      let timeout = Task {
        try await Task.sleep(for: .seconds(60))
        startedContinuation.finish()
      }
      for await _ in started {
        startedCount += 1
        if startedCount == running { break }
      }
      timeout.cancel()
    }
    store.send(.fill)
    let action = opaque(Roster.Action.row(middle, .rename))
    let result = await measure(
      id, name, operations: n, repetitions: repetitions, floor: floor
    ) {
      Self.loopStore(store, action, n)
    }
    let rows = store.state[keyPath: path]
    let changed = rows.filter { $0.title != 0 }.map { "\($0.id): \($0.title)" }
    let expected = n * (repetitions + 1)
    let inFlight = inFlightEffects(store)
    checks.append(
      Check(
        name: "\(id) every send reduced in its row only, \(running) effects in flight",
        passed: changed == ["\(middle): \(expected)"] && rows.count == order.count
          && startedCount == running && (inFlight ?? running) == running,
        detail: "rows changed \(changed.prefix(3)), expected [\(middle): \(expected)]; "
          + "\(startedCount) effects started, in flight \(described(inFlight))"))
    return result
  }
}
