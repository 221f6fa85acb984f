import Dispatch
import Foundation
import Testing

@testable import MiniRedux

/// A feature whose effects are chosen by the test: `.start(effect)` returns it as is.
@MainActor
func makeStore(
  _ log: [String] = []
) -> Store<[String], Event> {
  Store(initialState: log) { state, event in
    switch event {
    case .start(let effect):
      state.append("start")
      return effect.value
    case .log(let line):
      state.append(line)
      return .none
    }
  }
}

enum Event: Sendable {
  /// `Effect` has no Equatable; the box keeps `Event` simple.
  struct Box: Sendable { let value: Effect<Event> }
  case start(Box)
  case log(String)

  static func start(_ effect: Effect<Event>) -> Self { .start(Box(value: effect)) }
}

enum ID: Hashable, Sendable { case a, b }

/// NB: Not isolated, so that it tells where its caller runs.
nonisolated func isMainThread() -> Bool { Thread.isMainThread }

@MainActor
@Suite("Rule 3: .run runs off the main actor")
struct RunIsolationTests {
  @Test(".run operations run off the main actor; their sends are reduced on it")
  func offMain() async {
    // Given: an operation that says whether it runs on the main queue, the main actor's.
    // NB: The test does not block the main actor to prove it (.ci/check-isolation's OffMainCheck
    // does, in a process of its own): in a suite running in parallel, that stalls every test.
    let store = makeStore()

    // When
    await finished(
      store.send(
        .start(
          .run { send in
            await send(.log(isMainQueue() ? "ran on the main queue" : "ran off it"))
          })))

    // Then: the reducer, on the main actor, logged it.
    #expect(store.state == ["start", "ran off it"])
  }
}

@MainActor
@Suite("Rule 4: finished effects leave nothing behind")
struct LifetimeTests {
  @Test("after 10,000 finished effects of every shape the store holds no bookkeeping")
  func noBookkeeping() async {
    let store = makeStore()
    for i in 0..<2_000 {
      let id = i % 7
      await finished(store.send(.start(.run { send in await send(.log("a")) })))
      await finished(store.send(.start(.run { _ in }.cancellable(id: id))))
      await finished(store.send(.start(.merge(.run { _ in }, .run { _ in }).cancellable(id: ID.a))))
      await finished(
        store.send(.start(.concatenate(.run { _ in }, .send(.log("b"))).cancellable(id: id))))
      await finished(
        store.send(.start(.run { _ in throw CancellationError() }.cancellable(id: ID.b))))
    }
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("a released store is deallocated while its effect runs, and the effect is cancelled")
  func storeRelease() async {
    // Given: an effect that runs until cancelled.
    let observed = Recorder<String>()
    var store: Store<[String], Event>? = makeStore()
    weak let weakStore = store
    let task = store!.send(
      .start(
        .run { send in
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            observed.append("cancelled")
          }
          await send(.log("late"))
        }))

    // When
    store = nil

    // Then: the effect did not keep the store alive, and was cancelled.
    #expect(weakStore == nil)
    await finished(task)
    #expect(observed.values == ["cancelled"])
  }
}

@MainActor
@Suite("Rules 5 and 6: cancellation")
struct CancellationTests {
  /// An effect that waits at `gate` (ignoring cancellation), records whether it was cancelled,
  /// then tries to send `line`.
  func gated(_ gate: Gate, _ line: String, _ seen: Recorder<String>) -> Effect<Event> {
    .run { send in
      await gate.wait()
      if Task.isCancelled { seen.append("\(line) saw cancellation") }
      await send(.log(line))
    }
  }

  @Test("cancelInFlight cancels in-flight effects with that id before the new one starts")
  func cancelInFlight() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    let first = store.send(.start(gated(gate, "first", seen).cancellable(id: ID.a)))
    let second = store.send(
      .start(gated(gate, "second", seen).cancellable(id: ID.a, cancelInFlight: true)))
    #expect(first.isCancelled)
    #expect(store.snapshot.effects == 1)

    gate.open()
    await finished(first)
    await finished(second)
    #expect(store.state == ["start", "start", "second"])
    #expect(seen.values == ["first saw cancellation"])
  }

  @Test(".cancel(id:) cancels every in-flight effect with that id, and only those")
  func cancelAll() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    store.send(
      .start(.merge(gated(gate, "a1", seen), gated(gate, "a2", seen)).cancellable(id: ID.a)))
    store.send(.start(gated(gate, "a3", seen).cancellable(id: ID.a)))
    let other = store.send(.start(gated(gate, "b", seen).cancellable(id: ID.b)))
    #expect(store.snapshot.effects == 4)

    store.send(.start(.cancel(id: ID.a)))
    #expect(store.snapshot.effects == 1)

    gate.open()
    await finished(other)
    await eventually { seen.values.count == 3 }
    #expect(store.state.filter { $0 != "start" } == ["b"])
  }

  @Test("cancelling an unknown id does nothing")
  func unknownID() async {
    let store = makeStore()
    let task = store.send(.start(.run { send in await send(.log("done")) }.cancellable(id: ID.a)))
    store.send(.start(.cancel(id: "nothing by that name")))
    store.send(.start(.cancel(id: ID.b)))
    await finished(task)
    #expect(store.state.last == "done")
  }

  @Test("ids belong to one store: two stores using the same id never cancel each other")
  func perStore() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let one = makeStore()
    let two = makeStore()
    let task = one.send(.start(gated(gate, "one", seen).cancellable(id: ID.a)))
    two.send(.start(.cancel(id: ID.a)))
    #expect(one.snapshot.effects == 1)
    gate.open()
    await finished(task)
    #expect(one.state.last == "one")
  }

  @Test("ids of different types never collide: 1 and 1.0 are different ids")
  func typedIDs() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    store.send(.start(gated(gate, "int", seen).cancellable(id: 1)))
    store.send(.start(.cancel(id: 1.0)))
    store.send(.start(.cancel(id: "1")))
    #expect(store.snapshot.effects == 1)
    store.send(.start(.cancel(id: 1)))
    #expect(store.snapshot.effects == 0)
    gate.open()
  }

  @Test("an id with a main-actor-isolated Hashable conformance works; it is used on main only")
  func mainActorIsolatedID() async {
    // Given an id like `enum CancelID { case load }` in an app target built with
    // `-default-isolation MainActor`: a conformance that may be used only on the main actor.
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    store.send(.start(gated(gate, "x", seen).cancellable(id: MainActorID(value: 1))))
    store.send(.start(gated(gate, "y", seen).cancellable(id: MainActorID(value: 2))))

    // When one of them is cancelled by an equal id made later
    store.send(.start(.cancel(id: MainActorID(value: 1))))

    // Then exactly that effect was found, and every hash and comparison ran on the main thread.
    #expect(store.snapshot.effects == 1)
    #expect(MainActorID.uses.values.contains("=="))
    #expect(MainActorID.uses.values.allSatisfy { !$0.hasPrefix("off main") })
    #expect(await Task.detached { MainActorID.onMainQueue }.value == false)
    gate.open()
  }

  @Test("nested cancellable wrappers all apply")
  func nested() {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    store.send(.start(gated(gate, "x", seen).cancellable(id: ID.a).cancellable(id: ID.b)))
    store.send(.start(gated(gate, "y", seen).cancellable(id: ID.a).cancellable(id: ID.b)))
    store.send(.start(.cancel(id: ID.a)))
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    store.send(.start(gated(gate, "z", seen).cancellable(id: ID.a).cancellable(id: ID.b)))
    store.send(.start(.cancel(id: ID.b)))
    #expect(store.snapshot.effects == 0)
    gate.open()
  }

  @Test("cancelInFlight on a merge cancels what was in flight before, never its own children")
  func cancelInFlightOnMerge() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    store.send(.start(gated(gate, "old", seen).cancellable(id: ID.a)))
    let task = store.send(
      .start(
        .merge(gated(gate, "new1", seen), gated(gate, "new2", seen))
          .cancellable(id: ID.a, cancelInFlight: true)))
    #expect(store.snapshot.effects == 2)
    gate.open()
    await finished(task)
    #expect(Set(store.state.filter { $0 != "start" }) == ["new1", "new2"])
  }

  @Test("an effect is registered when it starts: a .cancel later in the same output finds it")
  func cancelInSameOutput() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    let task = store.send(
      .start(.merge(gated(gate, "never", seen).cancellable(id: ID.a), .cancel(id: ID.a))))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(task)
    #expect(store.state == ["start"])
  }

  @Test("a merge under an id whose part cancels that id: the parts before end, those after run")
  func mergeCancelsItsOwnID() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    let task = store.send(
      .start(
        .merge(
          gated(gate, "before", seen), .cancel(id: ID.a), .send(.log("sent")),
          gated(gate, "after", seen)
        ).cancellable(id: ID.a)))
    // `.cancel(id:)` stops what is in flight: the part started before it, not those after it.
    #expect(store.state == ["start", "sent"])
    #expect(store.snapshot.effects == 1)
    #expect(store.snapshot.ids == 1)  // The part after runs under the id.
    store.send(.start(.cancel(id: ID.a)))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "sent", "start"])
    #expect(task.isCancelled)
  }

  @Test("an effect is registered when it starts: a .cancel in the next action finds it")
  func cancelInNextAction() async {
    let store = makeStore()
    let task = store.send(
      .start(.run { send in await send(.log("never")) }.cancellable(id: ID.a)))
    store.send(.start(.cancel(id: ID.a)))
    await finished(task)
    #expect(store.state == ["start", "start"])
  }

  @Test("a cancelled effect cannot deliver, even if its operation ignores cancellation")
  func staleResponse() async {
    // Given: a search whose operation ignores cancellation and sends its result anyway.
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    let task = store.send(.start(gated(gate, "stale", seen).cancellable(id: ID.a)))

    // When: it is cancelled, then its response arrives.
    store.send(.start(.cancel(id: ID.a)))
    gate.open()
    await finished(task)

    // Then
    #expect(seen.values == ["stale saw cancellation"])
    #expect(store.state == ["start", "start"])
  }

  @Test("StoreTask.cancel() cancels the effects, and sends after it are dropped")
  func storeTaskCancel() async {
    let gate = Gate()
    let seen = Recorder<String>()
    let store = makeStore()
    let task = store.send(.start(.merge(gated(gate, "a", seen), gated(gate, "b", seen))))
    task.cancel()
    #expect(task.isCancelled)
    gate.open()
    await finished(task)
    #expect(store.state == ["start"])
    #expect(Set(seen.values) == ["a saw cancellation", "b saw cancellation"])
  }
}

@MainActor
@Suite("Rule 7: merge and concatenate")
struct CompositionOrderTests {
  @Test("merge starts its effects together")
  func mergeStartsTogether() async {
    // Each effect waits until both have started: a merge that ran them in turn would hang.
    let gate = Gate()
    let store = makeStore()
    let waitBoth = Effect<Event>.run { send in
      await gate.wait()
      await send(.log("ran"))
    }
    let task = store.send(.start(.merge(waitBoth, waitBoth)))
    await eventually { gate.waiterCount == 2 }
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "ran", "ran"])
  }

  @Test("concatenate starts each effect after the previous one has ended")
  func concatenateInOrder() async {
    let first = Gate()
    let store = makeStore()
    let task = store.send(
      .start(
        .concatenate(
          .run { send in
            await first.wait()
            await send(.log("1"))
          },
          .send(.log("2")),
          .run { send in await send(.log("3")) })))
    await eventually { first.waiterCount == 1 }
    #expect(store.state == ["start"])
    first.open()
    await finished(task)
    #expect(store.state == ["start", "1", "2", "3"])
  }

  @Test("concatenate stops when cancelled; cancellable on it covers the whole")
  func concatenateCancelled() async {
    let gate = Gate()
    let store = makeStore()
    let task = store.send(
      .start(
        .concatenate(
          .run { send in
            await gate.wait()
            await send(.log("1"))
          },
          .send(.log("2")),
          .run { send in await send(.log("3")) }
        ).cancellable(id: ID.a)))
    await eventually { gate.waiterCount == 1 }
    store.send(.start(.cancel(id: ID.a)))
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "start"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("cancellable on a merge covers every effect in it")
  func mergeCancelled() async {
    let gate = Gate()
    let store = makeStore()
    let effect = Effect<Event>.run { send in
      await gate.wait()
      await send(.log("x"))
    }
    let task = store.send(.start(.merge(effect, .concatenate(effect, effect)).cancellable(id: 9)))
    await eventually { gate.waiterCount == 2 }
    store.send(.start(.cancel(id: 9)))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "start"])
  }

  @Test("a concatenation cancelled by its own id inside its first step starts nothing more")
  func concatenateCancelsItself() async {
    let store = makeStore()
    let task = store.send(
      .start(
        .concatenate(
          .cancel(id: ID.a), .send(.log("never")), .run { send in await send(.log("no")) }
        )
        .cancellable(id: ID.a)))
    await finished(task)
    #expect(store.state == ["start"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("a step's .send actions are reduced before the next step starts, inside the same send")
  func concatenatedSendsInOrder() {
    let store = Store<[String], String>(initialState: []) { log, action in
      log.append(action)
      switch action {
      case "start": return .concatenate(.send("a"), .merge(.send("b"), .send("c")), .send("d"))
      case "a": return .send("a'")
      default: return .none
      }
    }
    let task = store.send("start")
    #expect(store.state == ["start", "a", "a'", "b", "c", "d"])
    #expect(store.snapshot.effects == 0)
    #expect(task.count == 0)
  }

  @Test("a concatenation cancelled from inside its own step ends once; the outer one waits")
  func innerConcatenationCancelledInsideOuterStep() async {
    // NB: A regression test, from the storm: `inner` is cancelled by its own first step, and
    // ended twice, so `outer` moved on while its second step was still running.
    let gate = Gate()
    let store = makeStore()
    let cancelsInner = Effect<Event>.concatenate(.cancel(id: ID.b), .send(.log("never")))
    let inner = Effect<Event>.concatenate(cancelsInner, .send(.log("never"))).cancellable(id: ID.b)
    let outer = Effect<Event>.concatenate(
      inner,
      .run { send in
        await gate.wait()
        await send(.log("second"))
      },
      .send(.log("third")))
    let task = store.send(.start(outer))
    await eventually { gate.waiterCount == 1 }
    #expect(store.state == ["start"])
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "second", "third"])
  }

  @Test("concatenate() and merge() of nothing are .none")
  func empty() {
    let store = makeStore()
    let task = store.send(.start(.merge(.concatenate([]), .merge([Effect<Event>]()))))
    #expect(task === StoreTask.empty)
    #expect(store.snapshot.effects == 0)
  }
}

@MainActor
@Suite("Rule 8: errors")
struct ErrorTests {
  struct Failure: Error {}

  @Test("an error thrown by .run goes to its catch: handler")
  func handler() async {
    let store = makeStore()
    let (_, reports) = await capturingReports {
      await finished(
        store.send(
          .start(
            .run { _ in
              throw Failure()
            } catch: { error, send in
              await send(.log("caught \(error)"))
            })))
    }
    #expect(store.state == ["start", "caught Failure()"])
    #expect(reports.isEmpty)
  }

  @Test("without a handler, an error is reported with the action that started the effect")
  func report() async {
    let store = makeStore()
    let (_, reports) = await capturingReports {
      await finished(store.send(.start(.run { _ in throw Failure() })))
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("Failure()") == true)
    #expect(reports.first?.contains("start(") == true)
    #expect(store.snapshot.effects == 0)
  }

  @Test("a cancelled effect is silent: what it throws is not reported, its handler is not called")
  func cancelledIsSilent() async {
    // Given: effects that throw their own error once cancelled, as URLSession throws
    // URLError.cancelled, one with a handler and one without.
    let (store, gate, handled) = (makeStore(), Gate(), Recorder<String>())
    let (_, reports) = await capturingReports {
      let tasks = [
        store.send(
          .start(
            .run { _ in
              await gate.wait()
              throw Failure()
            } catch: { _, _ in
              handled.append("handled")
            })),
        store.send(
          .start(
            .run { _ in
              await gate.wait()
              if Task.isCancelled { throw Failure() }
            })),
      ]
      // When: they are cancelled, then throw.
      for task in tasks { task.cancel() }
      gate.open()
      await finished(tasks)
    }
    // Then: nothing is reported or handled.
    #expect(reports.isEmpty)
    #expect(handled.values.isEmpty)
    #expect(store.snapshot.effects == 0)
  }

  @Test("CancellationError is silent")
  func cancellationIsSilent() async {
    let store = makeStore()
    let (_, reports) = await capturingReports {
      await finished(
        store.send(
          .start(
            .run { _ in
              throw CancellationError()
            } catch: { _, send in
              await send(.log("no"))
            })))
      await finished(store.send(.start(.run { _ in throw CancellationError() })))
    }
    #expect(reports.isEmpty)
    #expect(store.state == ["start", "start"])
  }

  @Test("a send after the operation returned is dropped and reported")
  func escapedSend() async {
    let kept = Recorder<Send<Event>>()
    let store = makeStore()
    let (_, reports) = await capturingReports {
      await finished(store.send(.start(.run { send in kept.append(send) })))
      kept.values[0](.log("too late"))
    }
    #expect(store.state == ["start"])
    #expect(reports.count == 1)
  }
}

@MainActor
@Suite("Rule 11: StoreTask")
struct StoreTaskTests {
  enum Action: Sendable { case start, middle, end }

  @Test("finish()'s task cancelled once the effects ended, before it resumed, cancels nothing")
  func cancelAfterEnd() async {
    // Given: a concatenation whose last step sends; its end resumes the waiter, and a listener
    // told of that send, in the same turn of the main actor, cancels the waiting task.
    let (gate, started) = (Gate(), Gate())
    let store = Store(initialState: 0) { (count: inout Int, step: Int) in
      count += 1
      return step == 0 ? .concatenate(.run { _ in await gate.wait() }, .send(1)) : .none
    }
    let task = store.send(0)
    let waiter = Task {
      started.open()
      await task.finish()
    }
    await started.wait()
    let subscription = store.subscribe { count in if count == 2 { waiter.cancel() } }
    // When
    gate.open()
    await waiter.value
    for _ in 0..<10 { await Task.yield() }  // NB: Lets the cancellation's handler run.
    // Then: every effect finished; the late cancel found nothing to cancel.
    #expect(store.state == 2)
    #expect(!task.isCancelled)
    subscription.cancel()
  }

  @Test("finish() waits for effects of the action and of the actions they sent back")
  func finishIsTransitive() async {
    // Given: .start's effect sends .middle, whose effect waits at a gate, then sends .end.
    let gate = Gate()
    let store = Store<[String], Action>(initialState: []) { state, action in
      state.append("\(action)")
      switch action {
      case .start: return .run { send in await send(.middle) }
      case .middle:
        return .run { send in
          await gate.wait()
          await send(.end)
        }
      case .end: return .none
      }
    }
    let finished = Recorder<Bool>()
    let task = store.send(.start)
    let waiter = Task {
      await task.finish()
      finished.append(true)
    }

    // When: the grandchild effect is still waiting
    await eventually { gate.waiterCount == 1 }
    for _ in 0..<100 { await Task.yield() }

    // Then: finish() has not returned; it does once the gate opens.
    #expect(finished.values.isEmpty)
    gate.open()
    await ended(waiter)
    #expect(store.state == ["start", "middle", "end"])
  }

  @Test("finish() in several tasks: a cancelled one returns at once, the others when effects end")
  func severalTasksFinish() async {
    // Given: an effect that ignores cancellation until the gate opens, and three tasks that await
    // the finish() of its send, in order.
    let gate = Gate()
    let store = Store<[String], Action>(initialState: []) { state, action in
      state.append("\(action)")
      return action == .start ? .run { _ in await gate.wait() } : .none
    }
    let task = store.send(.start)
    let finished = Recorder<Int>()
    let waiters = (0..<3).map { index in
      Task { @MainActor in
        await task.finish()
        finished.append(index)
      }
    }
    await eventually { gate.waiterCount == 1 }
    for _ in 0..<100 { await Task.yield() }

    // When: the first and the second task are cancelled
    waiters[0].cancel()
    waiters[1].cancel()

    // Then: both return at once; the third returns once the effect ends.
    await eventually { finished.values.count == 2 }
    #expect(Set(finished.values) == [0, 1])
    gate.open()
    await eventually { finished.values.count == 3 }
  }

  @Test("cancel() cancels the effects of the action and of the actions they sent back")
  func cancelIsTransitive() async {
    // Given: .middle's effect (a grandchild of the send) sends .end when the gate opens, then
    // sleeps until cancelled.
    let gate = Gate()
    let seen = Recorder<String>()
    let store = Store<[String], Action>(initialState: []) { state, action in
      state.append("\(action)")
      switch action {
      case .start: return .run { send in await send(.middle) }
      case .middle:
        return .run { send in
          await gate.wait()
          await send(.end)
          do { try await Task.sleep(for: .seconds(3600)) } catch { seen.append("cancelled") }
        }
      case .end: return .none
      }
    }
    let task = store.send(.start)
    await eventually { gate.waiterCount == 1 }

    // When
    task.cancel()
    gate.open()
    await finished(task)

    // Then: the grandchild's send was dropped at once, and its operation was cancelled.
    #expect(store.state == ["start", "middle"])
    #expect(seen.values == ["cancelled"])
  }

  @Test("cancelling the task awaiting finish() cancels the effects")
  func finishIsCancellable() async {
    let store = makeStore()
    let seen = Recorder<String>()
    let effect = Effect<Event>.run { _ in
      do { try await Task.sleep(for: .seconds(3600)) } catch { seen.append("cancelled") }
    }
    let waiter = Task { await store.send(.start(effect)).finish() }
    await eventually { store.snapshot.effects == 1 }
    waiter.cancel()
    await ended(waiter)
    await eventually { store.snapshot.effects == 0 }
    #expect(seen.values == ["cancelled"])
  }
}

@MainActor
@Suite("Rule 12: debounce")
struct DebounceTests {
  @Test("debounce starts the effect after the duration; a newer one replaces a pending one")
  func debounce() async {
    let clock = ManualClock()
    let requests = Recorder<String>()
    let store = Store<[String], String>(initialState: []) { state, query in
      if query.hasPrefix("result:") {
        state.append(query)
        return .none
      }
      return .run { send in
        requests.append(query)
        await send("result:\(query)")
      }
      .debounce(id: ID.a, for: .milliseconds(300), clock: clock)
    }

    // Given: two keystrokes, 100 ms apart.
    store.send("m")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(100))
    let last = store.send("mo")
    // Then: the pending one was replaced (one task, sleeping, is in flight).
    #expect(store.snapshot.effects == 1)
    await eventually { clock.sleeperCount == 1 }

    // When: 299 ms pass, nothing starts; at 300 ms the last one does.
    clock.advance(by: .milliseconds(299))
    for _ in 0..<100 { await Task.yield() }
    #expect(requests.values.isEmpty)
    clock.advance(by: .milliseconds(1))
    await finished(last)

    // Then
    #expect(requests.values == ["mo"])
    #expect(store.state == ["result:mo"])
    #expect(store.snapshot.effects == 0)
  }
}

extension DebounceTests {
  @Test("a debounced .run is one task: cancelled asleep, it never works; its errors go to catch")
  func oneTask() async {
    struct Failure: Error {}
    let clock = ManualClock()
    let worked = Recorder<String>()
    let store = makeStore()
    func search(_ query: String) -> Effect<Event> {
      .run { send in
        worked.append(query)
        if query == "fail" { throw Failure() }
        await send(.log("result:\(query)"))
      } catch: { _, send in
        await send(.log("caught:\(query)"))
      }
      .debounce(id: ID.a, for: .seconds(1), clock: clock)
    }

    // When: a search is cancelled in its sleep, another replaced, and the last one fails.
    store.send(.start(search("a")))
    store.send(.start(.cancel(id: ID.a)))
    store.send(.start(search("b")))
    let last = store.send(.start(search("fail")))
    await eventually { clock.sleeperCount == 1 }
    #expect(store.snapshot.effects == 1)
    clock.advance(by: .seconds(1))
    await finished(last)

    // Then: only the last one worked, and its error became an action.
    #expect(worked.values == ["fail"])
    #expect(store.state == ["start", "start", "start", "start", "caught:fail"])
  }

  @Test("debouncing a composite effect waits, then starts all of it, under the same id")
  func composite() async {
    let clock = ManualClock()
    let store = makeStore()
    let task = store.send(
      .start(
        Effect.merge(.send(.log("a")), .run { send in await send(.log("b")) })
          .debounce(id: ID.a, for: .seconds(1), clock: clock)))
    await eventually { clock.sleeperCount == 1 }
    #expect(store.state == ["start"])
    clock.advance(by: .seconds(1))
    await finished(task)
    #expect(Set(store.state) == ["start", "a", "b"])
    #expect(store.snapshot.effects == 0)
  }
}

@MainActor
@Suite("map")
struct MapTests {
  enum Child: Sendable { case tick(Int) }

  @Test("map transforms sent actions, catch handlers and keeps cancellation ids")
  func map() async {
    struct Failure: Error {}
    let gate = Gate()
    let child: Effect<Child> = .merge(
      .send(.tick(1)),
      .run { send in await send(.tick(2)) },
      .run { send in
        await gate.wait()
        await send(.tick(3))
      }.cancellable(id: ID.b),
      .run { _ in
        throw Failure()
      } catch: { _, send in
        await send(.tick(4))
      })
    let store = makeStore()

    let task = store.send(.start(child.map { .log("\($0)") }))
    store.send(.start(.cancel(id: ID.b)))
    gate.open()
    await finished(task)

    // Then: .send is synchronous, the cancelled child never lands, the others land later.
    #expect(Array(store.state.prefix(3)) == ["start", "tick(1)", "start"])
    #expect(Set(store.state.dropFirst(3)) == ["tick(2)", "tick(4)"])
    #expect(store.snapshot.effects == 0)
  }
}

/// An id whose `Hashable` conformance is isolated to the main actor, as every type's is in a target
/// built with `-default-isolation MainActor`. It records where it was hashed and compared.
struct MainActorID: @MainActor Hashable {
  static let uses = Recorder<String>()
  let value: Int

  /// Whether this code runs on the main actor's queue. NB: On Linux the main queue is drained by
  /// a worker thread once the test runner calls dispatchMain(), so `Thread.isMainThread` can't say.
  static var onMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }
  static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static func == (lhs: Self, rhs: Self) -> Bool {
    uses.append(onMainQueue ? "==" : "off main ==")
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    Self.uses.append(Self.onMainQueue ? "hash" : "off main hash")
    hasher.combine(value)
  }
}

/// The two forms a debounce takes: a debounced `.run` is one task that pauses, then works; any
/// other effect is a concatenation of the pause and the effect. Both follow one rule.
enum DebouncedForm: String, CaseIterable, Sendable {
  case run, composite

  /// `work`, in this form: as it is, or wrapped so that it is not a `.run`.
  func shape(_ work: Effect<String>) -> Effect<String> {
    self == .run ? work : work.cancellable(id: "inner")
  }
}

extension DebounceTests {
  /// Search as you type: a query pauses 10 ms, then its work sleeps 200 ms and sends results.
  static func searchStore(_ clock: ManualClock, _ form: DebouncedForm) -> Store<[String], String> {
    Store(initialState: []) { log, action in
      log.append(action)
      switch action {
      case "query":
        return form.shape(
          .run { send in
            try await clock.sleep(for: .milliseconds(200))
            await send("results")
          }
        )
        .debounce(id: 0, for: .milliseconds(10), clock: clock)
      case "stop":
        return .cancel(id: 0)
      default:
        return .none
      }
    }
  }

  @Test(
    "a debounce's pause is not an effect: work cancelled after its pause counts as cancelled",
    arguments: DebouncedForm.allCases)
  func cancelledAfterPause(_ form: DebouncedForm) async {
    // Given: a query whose pause has ended and whose work has started.
    let clock = ManualClock()
    let store = Self.searchStore(clock, form)
    let first = store.send("query")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(10))
    await eventually { clock.sleeperCount == 1 && clock.now.offset == .milliseconds(10) }

    // When: a newer query, 190 ms into the first's work, replaces it, and runs to its end.
    clock.advance(by: .milliseconds(190))
    let second = store.send("query")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(10))
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(200))
    await finished(first)
    await finished(second)

    // Then: the first's work was cancelled, so the first send's effects were; the second's not.
    #expect(first.isCancelled, "\(form)")
    #expect(!second.isCancelled, "\(form)")
    #expect(store.state == ["query", "query", "results"], "\(form)")
    #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0, "\(form)")
  }

  @Test(
    "a debounced effect that cancels its own id from its work counts as cancelled",
    arguments: DebouncedForm.allCases)
  func cancelsItself(_ form: DebouncedForm) async {
    let clock = ManualClock()
    let store = Store<[String], String>(initialState: []) { log, action in
      log.append(action)
      switch action {
      case "go":
        return form.shape(
          .run { send in
            try await clock.sleep(for: .milliseconds(10))
            await send("stop")
          }
        )
        .debounce(id: 0, for: .milliseconds(10), clock: clock)
      case "stop":
        return .cancel(id: 0)
      default:
        return .none
      }
    }
    let task = store.send("go")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(10))
    await eventually { clock.sleeperCount == 1 && clock.now.offset == .milliseconds(10) }
    clock.advance(by: .milliseconds(10))
    await finished(task)
    #expect(task.isCancelled, "\(form)")
    #expect(store.state == ["go", "stop"], "\(form)")
  }

  @Test(
    "a debounced effect that finishes is not cancelled; one cancelled in its pause is",
    arguments: DebouncedForm.allCases)
  func finishedOrCancelledInPause(_ form: DebouncedForm) async {
    let clock = ManualClock()
    let store = Self.searchStore(clock, form)
    let paused = store.send("query")
    await eventually { clock.sleeperCount == 1 }
    store.send("stop")
    await finished(paused)
    #expect(paused.isCancelled, "\(form)")

    let completed = store.send("query")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .milliseconds(10))
    await eventually { clock.sleeperCount == 1 && clock.now.offset == .milliseconds(10) }
    clock.advance(by: .milliseconds(200))
    await finished(completed)
    #expect(!completed.isCancelled, "\(form)")
    #expect(store.state == ["query", "stop", "query", "results"], "\(form)")
  }
}
