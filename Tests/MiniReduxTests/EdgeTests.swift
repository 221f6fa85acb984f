import Foundation
import Observation
import Testing

@testable import MiniRedux

// NB: Timings below are printed for the report, never asserted: CI machines vary too much.

@MainActor
@Suite("Edges: long chains")
struct LongChainTests {
  enum Action: Sendable { case step(Int) }

  @Test("a chain of 1,000,000 .send effects completes without growing the stack")
  func millionSends() async {
    let length = 1_000_000
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      guard case .step(let n) = action else { return .none }
      count += 1
      return n < length ? .send(.step(n + 1)) : .none
    }

    let seconds = await measure { await finished(store.send(.step(1))) }

    #expect(store.state == length)
    #expect(store.snapshot.effects == 0)
    print("[edge] \(length) chained .send effects: \(seconds.formatted2) s")
  }

  @Test("a chain of 10,000 effects that each send the next action completes")
  func effectChain() async {
    // NB: Each effect waits for the effects of the action it sent, so the whole chain is alive
    // until its last link ends; this checks that the wait is not recursive on the stack.
    let length = 10_000
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      guard case .step(let n) = action else { return .none }
      count += 1
      guard n < length else { return .none }
      return .run { send in await send(.step(n + 1)) }
    }

    // NB: 10,000 hops to the main actor and back: seconds in a plain build, more under a sanitizer.
    await finished(store.send(.step(1)), within: patience)

    #expect(store.state == length)
    #expect(store.snapshot.effects == 0)
  }
}

@MainActor
@Suite("Edges: many effects in flight")
struct ManyEffectsTests {
  enum Action: Sendable { case start(Int), stop(Int), stopAll }
  struct Shared: Hashable, Sendable {}

  /// A store whose `.start(i)` runs an effect under id `i` (and `Shared()`) that waits for
  /// cancellation.
  static func makeStore(_ live: LiveCounter) -> Store<Int, Action> {
    Store(asInApp: 0) { _, action in
      switch action {
      case .start(let id):
        return .run { _ in
          live.enter()
          await suspendUntilCancelled()
          live.leave(cancelled: Task.isCancelled)
        }
        .cancellable(id: id)
        .cancellable(id: Shared())
      case .stop(let id):
        return .cancel(id: id)
      case .stopAll:
        return .cancel(id: Shared())
      }
    }
  }

  /// Starts `count` effects, cancels them one id at a time, and returns (start, cancel) seconds.
  func startThenCancelEach(_ count: Int) async -> (Double, Double) {
    let live = LiveCounter()
    let store = Self.makeStore(live)
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(count)

    // Given: `count` effects in flight, each under its own id.
    let started = await measure {
      for id in 0..<count {
        tasks.append(store.send(.start(id)))
        await yieldSometimes(id)
      }
    }
    #expect(store.snapshot.effects == count)

    // When: each id is cancelled.
    let cancelled = await measure {
      for id in 0..<count {
        store.send(.stop(id))
        await yieldSometimes(id)
      }
    }

    // Then: the registry is empty at once, and every operation sees the cancellation and ends.
    #expect(store.snapshot.effects == 0)
    await finished(tasks)
    #expect(live.live == 0)
    #expect(live.started == count)
    #expect(live.sawCancellation == count)
    return (started, cancelled)
  }

  @Test("100,000 effects with distinct ids are each cancelled by id; the registry empties")
  func hundredThousandCancelledByID() async {
    let small = await startThenCancelEach(10_000)
    let large = await startThenCancelEach(100_000)
    print(
      """
      [edge] start/cancel 10,000 effects: \(small.0.formatted2) s / \(small.1.formatted2) s; \
      100,000: \(large.0.formatted2) s / \(large.1.formatted2) s \
      (cancel ratio \((large.1 / max(small.1, 1e-9)).formatted2)x for 10x the effects)
      """)
  }

  @Test("one .cancel for an id shared by 100,000 effects cancels them all")
  func hundredThousandUnderOneID() async {
    let count = 100_000
    let live = LiveCounter()
    let store = Self.makeStore(live)
    var tasks: [StoreTask] = []

    // Given: 100,000 effects, all also registered under `Shared()`.
    for id in 0..<count {
      tasks.append(store.send(.start(id)))
      await yieldSometimes(id)
    }
    #expect(store.snapshot.effects == count)

    // When: the shared id is cancelled once.
    let seconds = await measure { store.send(.stopAll) }

    // Then: everything is unregistered and every operation ends having seen cancellation.
    #expect(store.snapshot.effects == 0)
    await finished(tasks)
    #expect(live.live == 0)
    #expect(live.sawCancellation == count)
    print("[edge] one .cancel over 100,000 effects: \(seconds.formatted2) s")
  }

  @Test("a store released with 10,000 effects in flight is deallocated and cancels them all")
  func releasedWithTenThousandInFlight() async {
    let count = 10_000
    let live = LiveCounter()
    var store: Store<Int, Action>? = Self.makeStore(live)
    weak let weakStore = store
    var tasks: [StoreTask] = []

    // Given: 10,000 effects in flight whose operations have started.
    for id in 0..<count {
      tasks.append(store!.send(.start(id)))
      await yieldSometimes(id)
    }
    await eventually { live.started == count }

    // When: the last reference to the store goes away.
    store = nil

    // Then: it is gone at once, every operation sees cancellation, and every task finishes.
    #expect(weakStore == nil)
    await finished(tasks)
    #expect(live.live == 0)
    #expect(live.sawCancellation == count)
  }
}

@MainActor
@Suite("Edges: a Send that outlives its effect or store")
struct KeptSendTests {
  enum Action: Sendable { case keep, late }

  static func makeStore(
    keeper: Locked<Send<Action>?>, reduced: Recorder<Action>
  ) -> Store<Int, Action> {
    Store(asInApp: 0) { _, action in
      reduced.append(action)
      guard case .keep = action else { return .none }
      return .run { send in keeper.withLock { $0 = send } }
    }
  }

  @Test("a send through a Send kept after its store is gone is dropped, silently")
  func sendAfterStoreReleased() async {
    let keeper = Locked<Send<Action>?>(nil)
    let reduced = Recorder<Action>()
    var store: Store<Int, Action>? = Self.makeStore(keeper: keeper, reduced: reduced)
    weak let weakStore = store

    // Given: an effect leaked its Send and ended; then the store was released.
    await finished(store!.send(.keep))
    store = nil
    #expect(weakStore == nil)

    // When: the leaked Send is used.
    let (_, reports) = await capturingReports {
      keeper.current!(.late)
    }

    // Then: nothing is reduced, nothing crashes, nothing is reported (there is no store to misuse).
    #expect(reduced.values.count == 1)
    #expect(reports.isEmpty)
  }

  @Test("a send through a Send kept after its operation returned is dropped and reported once")
  func sendAfterOperationReturned() async {
    let keeper = Locked<Send<Action>?>(nil)
    let reduced = Recorder<Action>()
    let store = Self.makeStore(keeper: keeper, reduced: reduced)

    // Given: an effect leaked its Send and ended.
    await finished(store.send(.keep))

    // When: the leaked Send is used while the store is alive.
    let (_, reports) = await capturingReports {
      keeper.current!(.late)
    }

    // Then: the action is dropped and the misuse is reported exactly once.
    #expect(reduced.values.count == 1)
    #expect(reports.count == 1)
    #expect(reports.first?.contains("after its operation had returned") == true)
  }
}

@MainActor
@Suite("Edges: sends made while a send is notifying")
struct NotificationSendTests {
  enum Action: Sendable, Equatable { case first, second, third }

  @Test("a subscriber that sends during notification is queued, never nested")
  func subscriberSends() async {
    let probe = ReentrancyProbe()
    var log: [Action] = []
    let store = Store<Int, Action>(
      initialState: 0,
      probe.wrap { count, action in
        log.append(action)
        count += 1
        return action == .first ? .send(.third) : .none
      })
    var notified: [Int] = []
    let subscription = store.subscribe { [weak store] count in
      notified.append(count)
      // NB: Sends from inside the notification, on the first real change only.
      if count == 2 { store?.send(.second) }
    }

    // When: one action causes a notification whose subscriber sends.
    await finished(store.send(.first))

    // Then: the subscriber's action ran after the queued `.third`, and the reducer never nested.
    #expect(log == [.first, .third, .second])
    #expect(notified == [0, 2, 3])
    #expect(probe.reentries == 0)
    subscription.cancel()
  }

  @Test("a subscriber's send joins the task whose action it saw, however that action arrived")
  func subscriberSendJoinsTask() async {
    for viaConcatenation in [false, true] {
      let (step, fetch) = (Gate(), Gate())
      let store = Store<[String], String>(asInApp: []) { log, action in
        log.append(action)
        switch action {
        case "start" where viaConcatenation:
          return .concatenate(.run { _ in await step.wait() }, .send("x"))
        case "start":
          return .run { send in
            await step.wait()
            await send("x")
          }
        case "fetch":
          return .run { send in
            await fetch.wait()
            await send("fetched")
          }
        default: return .none
        }
      }
      let sentFetch = Gate()
      let subscription = store.subscribe { [weak store] log in
        guard log.last == "x" else { return }
        store?.send("fetch")
        sentFetch.open()
      }
      defer {
        step.open()
        fetch.open()
        subscription.cancel()
      }
      let task = store.send("start")
      step.open()
      await opened(sentFetch)

      // Then: the subscriber's `fetch` belongs to `start`'s task, which cancels it.
      task.cancel()
      fetch.open()
      await finished(task)
      #expect(store.state == ["start", "x", "fetch"], "via a concatenation: \(viaConcatenation)")
      #expect(store.snapshot.effects == 0)
    }
  }

  @Test("an observer that sends from withObservationTracking's onChange is queued, not nested")
  func observerSends() async {
    let probe = ReentrancyProbe()
    var log: [Action] = []
    let store = Store<Int, Action>(
      initialState: 0,
      probe.wrap { count, action in
        log.append(action)
        count += 1
        return .none
      })
    var logAfterObserverSent: [Action]?

    // Given: an observer of `state` that sends as soon as it hears of a change (onChange runs
    // in willSet, once `.first` has been reduced and the send is telling its observers).
    withObservationTracking {
      _ = store.state
    } onChange: { [weak store] in
      MainActor.assumeIsolated {
        store?.send(.second)
        logAfterObserverSent = log
      }
    }

    // When: an action changes the state.
    await finished(store.send(.first))

    // Then: the observer's send returned without reducing; `.second` ran after `.first`.
    #expect(logAfterObserverSent == [.first])
    #expect(log == [.first, .second])
    #expect(store.state == 2)
    #expect(probe.reentries == 0)
  }
}

@MainActor
@Suite("Edges: degenerate effects")
struct DegenerateEffectTests {
  enum Action: Sendable, Equatable { case start, cancelUnknown, cancelDouble, done, empty(Int) }

  @Test("cancelling an id that was never used does nothing, and 1 and 1.0 are different ids")
  func cancelUnknownID() async {
    let gate = Gate()
    let store = Store<[Action], Action>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case .start:
        return .run { send in
          await gate.wait()
          await send(.done)
        }
        .cancellable(id: 1)
      case .cancelUnknown:
        return .merge(.cancel(id: "never used"), .cancel(id: 2))
      case .cancelDouble:
        return .cancel(id: 1.0)
      default:
        return .none
      }
    }

    // Given: an effect in flight under the Int id 1.
    let task = store.send(.start)
    await eventually { gate.waiterCount == 1 }

    // When: unknown ids, and the Double 1.0, are cancelled.
    await finished(store.send(.cancelUnknown))
    await finished(store.send(.cancelDouble))
    #expect(store.snapshot.effects == 1)
    gate.open()
    await finished(task)

    // Then: the effect was untouched and delivered.
    #expect(store.state == [.start, .cancelUnknown, .cancelDouble, .done])
    #expect(store.snapshot.effects == 0)
  }

  @Test("concatenate() and merge() of nothing complete at once and start nothing")
  func emptyCompositions() async {
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      guard case .empty(let which) = action else { return .none }
      count += 1
      switch which {
      case 0: return .concatenate()
      case 1: return .merge()
      case 2: return .concatenate([Effect<Action>]())
      case 3: return .merge([Effect<Action>]())
      case 4: return .concatenate(.none, .none)
      case 5: return .merge(.none, .concatenate(), .merge())
      default: return .concatenate(.merge(), .none).cancellable(id: "empty")
      }
    }

    for which in 0...6 {
      let task = store.send(.empty(which))
      #expect(task.isCancelled, "an empty StoreTask has nothing to run (case \(which))")
      await finished(task)
    }

    #expect(store.state == 7)
    #expect(store.snapshot.effects == 0)
  }
}

@MainActor
@Suite("Edges: cancelling a StoreTask")
struct StoreTaskCancellationTests {
  enum Action: Sendable, Equatable { case start, child, childDone, stopStart }

  @Test("cancelling a StoreTask stops effects caused by actions its effects sent")
  func cancelReachesChildren() async {
    let clock = ManualClock()
    let gate = Gate()
    let childLive = LiveCounter()
    let store = Store<[Action], Action>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case .start:
        // NB: Waiting on the gate ignores cancellation, as a non-cooperative await does.
        return .run { send in
          await send(.child)
          await gate.wait()
        }
      case .child:
        return .run { send in
          childLive.enter()
          defer { childLive.leave(cancelled: Task.isCancelled) }
          try await clock.sleep(for: .seconds(1))
          await send(.childDone)
        }
      case .childDone, .stopStart:
        return .none
      }
    }

    // Given: `.start`'s effect sent `.child`, whose effect sleeps; `.start`'s effect still runs.
    let task = store.send(.start)
    await eventually { clock.sleeperCount == 1 && gate.waiterCount == 1 }

    // When: the StoreTask is cancelled and then the child's sleep ends.
    task.cancel()
    clock.advance(by: .seconds(1))
    await eventually { childLive.live == 0 }
    gate.open()
    await finished(task)

    // Then: the child, one of "the effects started by this action and by the actions those
    // effects send back", delivered nothing after the cancellation.
    #expect(store.state == [.start, .child])
    #expect(store.snapshot.effects == 0)
  }

  @Test("cancelling a StoreTask stops effects caused by an effect already cancelled by id")
  func cancelReachesChildrenOfIDCancelledRoot() async {
    let clock = ManualClock()
    let gate = Gate()
    let childLive = LiveCounter()
    let store = Store<[Action], Action>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case .start:
        return .run { send in
          await send(.child)
          await gate.wait()
        }
        .cancellable(id: "start")
      case .child:
        return .run { send in
          childLive.enter()
          defer { childLive.leave(cancelled: Task.isCancelled) }
          try await clock.sleep(for: .seconds(1))
          await send(.childDone)
        }
      case .stopStart:
        return .cancel(id: "start")
      case .childDone:
        return .none
      }
    }

    // Given: `.start`'s effect caused `.child`'s effect, and was then cancelled by id, which
    // leaves `.child`'s effect running.
    let task = store.send(.start)
    await eventually { clock.sleeperCount == 1 && gate.waiterCount == 1 }
    store.send(.stopStart)

    // When: the StoreTask of `.start` is cancelled too, and the child's sleep then ends.
    task.cancel()
    clock.advance(by: .seconds(1))
    await eventually { childLive.live == 0 }
    gate.open()
    await finished(task)

    // Then: the StoreTask's cancellation reached the child: it delivered nothing.
    #expect(store.state == [.start, .child, .stopStart])
  }
}

@MainActor
@Suite("Soak: live heap across a million effect round trips")
struct SoakTests {
  enum Action: Sendable { case start, done }

  // NB: Slow (tens of seconds) and sensitive to other tests allocating at the same time, so it
  // runs only on request, alone: MINIREDUX_SOAK=1 swift test --filter SoakTests
  @Test(
    "a million .run round trips leave the live heap where it was",
    .enabled(if: ProcessInfo.processInfo.environment["MINIREDUX_SOAK"] == "1"),
    .enabled(if: Sanitizer.current == .none, "sanitizers replace the allocator"),
    .enabled(if: liveHeapBytes() != nil, "needs glibc mallinfo2 on x86-64"))
  func millionRoundTrips() async {
    let roundTrips = 1_000_000
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      switch action {
      case .start:
        return .run { send in await send(.done) }
      case .done:
        count += 1
        return .none
      }
    }

    // Given: a warmed-up store (caches, task pools and dictionaries at their working size).
    for _ in 0..<10_000 { await finished(store.send(.start)) }
    let before = liveHeapBytes()!

    // When: a million effects each send one action back and are awaited.
    let seconds = await measure {
      for _ in 0..<roundTrips { await finished(store.send(.start)) }
    }
    let after = liveHeapBytes()!

    // Then: nothing accumulated; 1 MiB is noise, a leak of even 2 bytes per trip is not.
    let growth = after - before
    print(
      """
      [soak] \(roundTrips) round trips in \(seconds.formatted2) s; live heap \(before) → \(after) \
      bytes (\(growth >= 0 ? "+" : "")\(growth), \
      \((Double(growth) / Double(roundTrips)).formatted2) bytes per round trip)
      """)
    #expect(store.state == roundTrips + 10_000)
    #expect(store.snapshot.effects == 0)
    #expect(growth < 1 << 20)
  }
}

extension DegenerateEffectTests {
  @Test("an id twice around one effect: once it ends, the id still covers the others")
  func sameIDTwice() async {
    // NB: Twenty stores, as the registry's order of the others under an id varies between runs.
    for _ in 0..<20 {
      let (first, second) = (Gate(), Gate())
      let store = makeStore()
      let once = store.send(
        .start(.run { _ in await first.wait() }.cancellable(id: ID.a).cancellable(id: ID.a)))
      let other = store.send(
        .start(
          .run { send in
            await second.wait()
            await send(.log("after its id was cancelled"))
          }
          .cancellable(id: ID.a)))
      first.open()
      guard await finished(once) else { break }

      store.send(.start(.cancel(id: ID.a)))
      second.open()
      guard await finished(other) else { break }

      #expect(store.state == ["start", "start", "start"])
    }
  }
}
