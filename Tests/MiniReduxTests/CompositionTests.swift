import Testing

@testable import MiniRedux

// Effects nested in one another, as users write them: a merge as a concatenation's step, two
// concatenations merged, wrappers around wrappers, and concatenations inside concatenations. Each
// test records the actions its reducer sees, in order, and checks that nothing is left running.

@MainActor
@Suite("Composition: merges, concatenations and wrappers nested in one another")
struct NestedEffectTests {
  enum Wrapper { case inner, outer }

  /// A `.run` that waits at `gate` (ignoring cancellation), records whether it was cancelled,
  /// then sends `action`.
  static func gated(_ gate: Gate, _ action: String, _ seen: Recorder<String>) -> Effect<String> {
    .run { send in
      await gate.wait()
      seen.append(Task.isCancelled ? "\(action) cancelled" : "\(action) not cancelled")
      await send(action)
    }
  }

  @Test("a concatenation moves on from a merged step only once every part of the step has ended")
  func mergeInsideConcatenation() async throws {
    // Given: a step that merges two runs, each held at a gate of its own, and a `.send`.
    // NB: A TestStore, as its steps wait for the effects' jobs: once `receive` returns, the first
    // run's end is on its way to the main actor, ahead of anything the second run sends.
    let (first, second) = (Gate(), Gate())
    let store = TestStore(initialState: [String]()) { (log: inout [String], action: String) in
      log.append(action)
      guard action == "start" else { return .none }
      return .concatenate(
        .merge(
          .run { send in
            await first.wait()
            await send("a")
          },
          .run { send in
            await second.wait()
            await send("b")
          },
          .send("c")),
        .send("d"))
    }
    store.timeout = patience
    try await store.send("start") { $0.append("start") }
    try await store.receive("c") { $0.append("c") }

    // When: the first run ends while the second one still waits.
    first.open()
    try await store.receive("a") { $0.append("a") }
    second.open()

    // Then: the next step waited for the second run too: `.d` comes after `.b`, and nothing is
    // left running (`finish` fails on an effect still in flight).
    try await store.receive("b") { $0.append("b") }
    try await store.receive("d") { $0.append("d") }
    try await store.finish()
    #expect(store.state == ["start", "c", "a", "b", "d"])
  }

  @Test("two merged concatenations run side by side, each in its own order")
  func concatenationsInsideMerge() async throws {
    // Given: two concatenations; the first one's run waits at a gate that the second one's last
    // step opens, so the first can end only if the second ran to its end meanwhile.
    let gate = Gate()
    let store = Store<[String], String>(initialState: []) { log, action in
      log.append(action)
      switch action {
      case "start":
        return .merge(
          .concatenate(
            .send("x1"),
            .run { send in
              await gate.wait()
              await send("x2")
            },
            .send("x3")),
          .concatenate(.send("y1"), .run { send in await send("y2") }, .send("y3")))
      case "y3":
        gate.open()
        return .none
      default:
        return .none
      }
    }

    // When
    let task = store.send("start")

    // Then: both first steps were reduced before `send` returned; the rest follows each order.
    try #require(store.state == ["start", "x1", "y1"])
    await finished(task)
    #expect(store.state == ["start", "x1", "y1", "y2", "y3", "x2", "x3"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("either of two nested cancellable ids stops every run inside; a .send stays reduced")
  func nestedCancellables() async {
    for id in [Wrapper.inner, Wrapper.outer] {
      // Given: two runs and a `.send` merged inside two wrappers.
      let (gate, seen) = (Gate(), Recorder<String>())
      let store = Store<[String], String>(initialState: []) { log, action in
        log.append(action)
        switch action {
        case "start":
          return .merge(Self.gated(gate, "a", seen), Self.gated(gate, "b", seen), .send("sent"))
            .cancellable(id: Wrapper.inner)
            .cancellable(id: Wrapper.outer)
        case "stop":
          return .cancel(id: id)
        default:
          return .none
        }
      }
      let task = store.send("start")
      #expect(store.snapshot.effects == 2)

      // When: one of the ids is cancelled, then the runs try to send.
      store.send("stop")
      #expect(store.snapshot.effects == 0, "cancelling \(id)")
      gate.open()
      await finished(task)

      // Then: both runs were cancelled and delivered nothing; `.sent` was reduced and stays.
      #expect(store.state == ["start", "sent", "stop"], "cancelling \(id)")
      #expect(Set(seen.values) == ["a cancelled", "b cancelled"], "cancelling \(id)")
      #expect(store.snapshot.effects == 0)
      #expect(store.snapshot.ids == 0)
    }
  }

  @Test("a concatenation whose step is a concatenation holding a merge runs every step in order")
  func concatenationInsideConcatenation() async {
    // The inner concatenation as is, which the outer one takes its steps from, and wrapped in a
    // cancellable, which makes it one step that runs as a concatenation of its own.
    for isWrapped in [false, true] {
      // Given: in the merge, the run that sends `.c1` waits at a gate the reduction of `.c2` opens.
      let gate = Gate()
      let store = Store<[String], String>(initialState: []) { log, action in
        log.append(action)
        switch action {
        case "start":
          let merged = Effect<String>.merge(
            .run { send in
              await gate.wait()
              await send("c1")
            },
            .run { send in await send("c2") },
            .send("d"))
          let inner = Effect<String>.concatenate(
            .run { send in await send("b") }, merged, .send("e"))
          return .concatenate(
            .send("a"), isWrapped ? inner.cancellable(id: Wrapper.inner) : inner, .send("f"))
        case "c2":
          gate.open()
          return .none
        default:
          return .none
        }
      }

      // When
      let task = store.send("start")
      #expect(store.state == ["start", "a"])
      await finished(task)

      // Then: each step started once the one before it, and all it contains, had ended.
      #expect(
        store.state == ["start", "a", "b", "d", "c2", "c1", "e", "f"], "wrapped: \(isWrapped)")
      #expect(store.snapshot.effects == 0)
      #expect(store.snapshot.ids == 0)
    }
  }
}

@MainActor
@Suite("Composition: a concatenation inside a concatenation")
struct ConcatenationGroupingTests {
  /// The three ways to group a concatenation of three steps.
  enum Grouping: String, CaseIterable, Sendable {
    case flat, left, right

    func concatenate(_ a: Effect<Event>, _ b: Effect<Event>, _ c: Effect<Event>) -> Effect<Event> {
      switch self {
      case .flat: .concatenate(a, b, c)
      case .left: .concatenate(.concatenate(a, b), c)
      case .right: .concatenate(a, .concatenate(b, c))
      }
    }
  }

  /// How a concatenation whose last step waits at a gate ends: it finishes, or, while that step
  /// waits, an id around the whole, the send's task, or the step's own id cancels it.
  enum Ending: String, CaseIterable, Sendable {
    case finishes, cancelledByOuterID, cancelledByTask, lastStepCancelledByItsID
  }

  enum Step { case whole, last, inner }

  /// What a send came to: the actions reduced, the effects in flight while its last step waited,
  /// and whether its task counts as cancelled.
  struct Outcome: Equatable {
    var log: [String]
    var inFlight: Int
    var isCancelled: Bool
  }

  /// Sends `.a`, `.b`, then a run that waits at a gate and sends `.c`, grouped as `grouping`,
  /// under an id around the whole, and ends it as `ending` says.
  static func outcome(_ grouping: Grouping, _ ending: Ending) async -> Outcome {
    let (store, gate) = (makeStore(), Gate())
    defer { gate.open() }
    let last = Effect<Event>.run { send in
      await gate.wait()
      await send(.log("c"))
    }
    let task = store.send(
      .start(
        grouping.concatenate(.send(.log("a")), .send(.log("b")), last.cancellable(id: Step.last))
          .cancellable(id: Step.whole)))
    let inFlight = store.snapshot.effects
    switch ending {
    case .finishes: break
    case .cancelledByOuterID: store.send(.start(.cancel(id: Step.whole)))
    case .cancelledByTask: task.cancel()
    case .lastStepCancelledByItsID: store.send(.start(.cancel(id: Step.last)))
    }
    gate.open()
    await finished(task)
    #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0)
    return Outcome(log: store.state, inFlight: inFlight, isCancelled: task.isCancelled)
  }

  @Test(
    "a step that is a concatenation is spread: grouped either way, it runs as the flat one",
    arguments: Grouping.allCases, Ending.allCases)
  func groupingIsInvisible(_ grouping: Grouping, _ ending: Ending) async {
    // Given: the flat concatenation's outcome, two effects in flight while its last step waits
    // (the concatenation and its run) and, once cancelled, no effect finished.
    let flat = await Self.outcome(.flat, ending)
    #expect(flat.inFlight == 2)
    switch ending {
    case .finishes:
      #expect(flat == Outcome(log: ["start", "a", "b", "c"], inFlight: 2, isCancelled: false))
    case .cancelledByOuterID:
      #expect(flat == Outcome(log: ["start", "a", "b", "start"], inFlight: 2, isCancelled: true))
    case .cancelledByTask:
      #expect(flat == Outcome(log: ["start", "a", "b"], inFlight: 2, isCancelled: true))
    case .lastStepCancelledByItsID:
      #expect(flat.log == ["start", "a", "b", "start"])
    }

    // When: the same steps, grouped. Then: the same actions, effects and cancellation: the inner
    // concatenation is no effect of its own, and its end is no effect finishing.
    let grouped = await Self.outcome(grouping, ending)
    #expect(grouped == flat, "\(grouping), \(ending)")
  }

  @Test("a concatenation under an id is one step, and an effect: its id ends it, the outer goes on")
  func concatenationUnderAnIDIsOneStep() async {
    // Given: a step that is a concatenation under an id, whose first step waits at a gate.
    let (store, gate) = (makeStore(), Gate())
    defer { gate.open() }
    let waits = Effect<Event>.run { send in
      await gate.wait()
      await send(.log("a"))
    }
    let task = store.send(
      .start(
        .concatenate(
          .concatenate(waits, .send(.log("b"))).cancellable(id: Step.inner), .send(.log("c")))))

    // Then: it is not spread: the outer concatenation, the inner one and its run are in flight.
    #expect(store.snapshot.effects == 3)

    // When: its id is cancelled.
    store.send(.start(.cancel(id: Step.inner)))
    gate.open()
    await finished(task)

    // Then: its step not yet started never started; the outer concatenation went on to `.c`.
    #expect(store.state == ["start", "start", "c"])
    #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0)
  }

  @Test("a concatenation under an id, as a step, that ends uncancelled is an effect finishing")
  func concatenationUnderAnIDCountsAsFinishing() async {
    for isWrapped in [false, true] {
      // Given: a first step of two `.send`s, a concatenation, under an id of its own or not; then
      // a run that waits until cancelled.
      let store = makeStore()
      let sends = Effect<Event>.concatenate(.send(.log("a")), .send(.log("b")))
      let task = store.send(
        .start(
          .concatenate(
            isWrapped ? sends.cancellable(id: Step.inner) : sends,
            .run { _ in await untilCancelled() }
          ).cancellable(id: Step.whole)))

      // When: the id around the whole is cancelled while the run waits.
      store.send(.start(.cancel(id: Step.whole)))
      await finished(task)

      // Then: spread, no effect finished; under its id, the first step was one, and finished.
      #expect(store.state == ["start", "a", "b", "start"], "wrapped: \(isWrapped)")
      #expect(task.isCancelled == !isWrapped, "wrapped: \(isWrapped)")
    }
  }
}

// The rules for steps that are empty, that cancel the concatenation they belong to, that cancel
// their siblings in flight, and for a `.cancel(id:)` returned in a cancelled task.

@MainActor
@Suite("Composition: empty steps, and cancellation from inside an effect")
struct StepRuleTests {
  enum Own { case c }
  enum CancelID { case timer }

  @Test("a .none step of a concatenation is skipped; a concatenation of only .none starts nothing")
  func noneStepIsSkipped() async {
    // Given
    let store = makeStore()

    // When: a `.none` sits between a run and a `.send`.
    let task = store.send(
      .start(.concatenate(.run { send in await send(.log("a")) }, .none, .send(.log("b")))))

    // Then: `.b` waits for the run only.
    #expect(store.state == ["start"])
    await finished(task)
    #expect(store.state == ["start", "a", "b"])
    #expect(store.snapshot.effects == 0)

    // When: every step is `.none`.
    let empty = store.send(.start(.concatenate(.none, .none, .concatenate(.none, .none))))

    // Then: its task has no effects, and counts as cancelled.
    #expect(empty.isCancelled)
    #expect(empty.count == 0)
    await finished(empty)
    #expect(store.state == ["start", "a", "b", "start"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("a concatenation cancelled by its own step starts nothing after the .cancel")
  func concatenationCancelledByItsOwnStep() async {
    // Given
    let store = makeStore()

    // When: a step cancels the id around its own concatenation, then has a `.send` and a `.run`.
    let task = store.send(
      .start(
        .concatenate(
          .merge(.cancel(id: Own.c), .send(.log("a")), .run { send in await send(.log("b")) }),
          .send(.log("c"))
        ).cancellable(id: Own.c)))

    // Then: the `.send` was not queued, the `.run` did not start, nor did the next step.
    #expect(store.state == ["start"])
    #expect(store.snapshot.effects == 0)
    await finished(task)
    #expect(store.state == ["start"])
    #expect(task.isCancelled)

    // When: the step's `.send` comes before its `.cancel`.
    let sentFirst = store.send(
      .start(
        .concatenate(.merge(.send(.log("a")), .cancel(id: Own.c)), .send(.log("c")))
          .cancellable(id: Own.c)))

    // Then: it was queued before the cancel, and is reduced; the next step still never starts.
    await finished(sentFirst)
    #expect(store.state == ["start", "start", "a"])
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("an inner cancelInFlight cancels a sibling in the outer wrapper, never its concatenation")
  func innerCancelInFlightCancelsSibling() async {
    // Given: a run that waits at a gate, ignoring cancellation, next to one that cancels in
    // flight under the id of the wrapper around both: first in a merge, then in a concatenation.
    let seen = Recorder<String>()
    func sibling(_ gate: Gate) -> Effect<Event> {
      .run { send in
        await gate.wait()
        seen.append(Task.isCancelled ? "sibling cancelled" : "sibling not cancelled")
        await send(.log("a"))
      }
    }
    let inner = Effect<Event>.run { send in await send(.log("b")) }
      .cancellable(id: Own.c, cancelInFlight: true)
    let store = makeStore()

    // When: they start in a merge.
    let gate = Gate()
    let task = store.send(.start(.merge(sibling(gate), inner).cancellable(id: Own.c)))

    // Then: the sibling was cancelled before the inner run started; only the inner run delivers.
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "b"])
    #expect(seen.values == ["sibling cancelled"])

    // When: they are the first step of a concatenation inside the wrapper.
    let stepGate = Gate()
    let concatenated = store.send(
      .start(
        .concatenate(.merge(sibling(stepGate), inner), .send(.log("after")))
          .cancellable(id: Own.c)))

    // Then: the sibling was cancelled, the concatenation was not: it went on to its next step.
    #expect(store.snapshot.effects == 2)
    stepGate.open()
    await finished(concatenated)
    #expect(store.state == ["start", "b", "start", "b", "after"])
    #expect(seen.values == ["sibling cancelled", "sibling cancelled"])
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("a .cancel(id:) returned in a task cancelled during its reduction applies; a .run does not")
  func cancelReturnedInCancelledTaskApplies() async {
    // Given: a timer under `CancelID.timer`, and an effect that sends `.stop`, whose reduction
    // cancels that effect's own task, then returns a `.cancel` of the timer next to a `.run`.
    let held = Box<StoreTask>()
    let started = Recorder<String>()
    let store = Store<[String], String>(initialState: []) { log, action in
      log.append(action)
      switch action {
      case "startTimer":
        return .run { _ in await untilCancelled() }.cancellable(id: CancelID.timer)
      case "go":
        return .run { send in await send("stop") }
      case "stop":
        held.value?.cancel()
        return .merge(
          .cancel(id: CancelID.timer),
          .run { send in
            started.append("run")
            await send("shouldNotHappen")
          })
      default:
        return .none
      }
    }
    let timer = store.send("startTimer")

    // When
    held.value = store.send("go")
    await finished(held.value)

    // Then: the timer was cancelled, and the `.run` never started.
    #expect(store.state == ["startTimer", "go", "stop"])
    #expect(started.values.isEmpty)
    #expect(timer.isCancelled)
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    // NB: Were the timer still running, this ends it, so that a failure does not hang the test.
    timer.cancel()
    await finished(timer)
  }
}
