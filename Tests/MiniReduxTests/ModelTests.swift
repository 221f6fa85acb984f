import Testing

@testable import MiniRedux

// The two relations of the runtime, and the defects that mixing them caused. Containment (an id,
// a merge, a concatenation and their parts) is what `.cancel(id:)`, `cancelInFlight` and a
// concatenation's "previous step ended" refer to; causation (a send and what its effects sent
// back) is what a StoreTask covers. An action an effect sends is reduced in the send that caused
// it, never inside the effect that sent it.

@MainActor
@Suite("Model: containment and causation")
struct ContainmentTests {
  enum Action: Sendable, Equatable {
    case search(String), results(String), prefetch(String), prefetched(String), cancelSearch
  }
  enum ID { case search, prefetch }

  /// Search as you type: each query is debounced under `.search`; its results start a prefetch
  /// that waits on `gate`.
  static func search(_ clock: ManualClock, _ gate: Gate) -> Store<[String], Action> {
    Store(asInApp: []) { log, action in
      log.append("\(action)")
      switch action {
      case .search(let query):
        return .run { send in await send(.results(query)) }
          .debounce(id: ID.search, for: .seconds(1), clock: clock)
      case .results(let query):
        return .send(.prefetch(query))
      case .prefetch(let query):
        return .run { send in
          await gate.wait()
          await send(.prefetched(query))
        }
      case .prefetched:
        return .none
      case .cancelSearch:
        return .cancel(id: ID.search)
      }
    }
  }

  @Test("cancelling a debounced search leaves what its results started running")
  func cancelLeavesCausedEffects() async {
    // Given: a search whose results started a prefetch.
    let (clock, gate) = (ManualClock(), Gate())
    let store = Self.search(clock, gate)
    let task = store.send(.search("a"))
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .seconds(1))
    await eventually { gate.waiterCount == 1 }

    // When: the search's id is cancelled, and a newer keystroke replaces the debounce.
    store.send(.cancelSearch)
    store.send(.search("ab"))
    gate.open()
    await finished(task)

    // Then: the prefetch, caused by the results, not contained in the search, still delivered.
    #expect(store.state.contains("prefetched(\"a\")"))
  }

  @Test("an inner cancelInFlight never cancels a wrapper that encloses it")
  func innerCancelInFlightSparesEnclosingWrapper() async {
    let clock = ManualClock()
    let store = makeStore()
    let task = store.send(
      .start(
        Effect.run { send in await send(.log("ran")) }
          .cancellable(id: ID.search, cancelInFlight: true)
          .debounce(id: ID.search, for: .seconds(1), clock: clock)))
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .seconds(1))
    await finished(task)
    #expect(store.state == ["start", "ran"])
  }

  @Test("a debounced effect whose result restarts work under the same id starts it")
  func resultRestartsWorkUnderTheSameID() async {
    let clock = ManualClock()
    let store = Store<[String], String>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case "type": return .send("search")
      case "search":
        return .run { send in await send("results") }
          .debounce(id: ID.search, for: .seconds(1), clock: clock)
      case "results":
        return .run { send in await send("refined") }.cancellable(
          id: ID.search, cancelInFlight: true)
      default: return .none
      }
    }
    let task = store.send("type")
    await eventually { clock.sleeperCount == 1 }
    clock.advance(by: .seconds(1))
    await finished(task)
    #expect(store.state == ["type", "search", "results", "refined"])
  }

  @Test("a concatenation's next step does not wait for what its step's actions started")
  func concatenationDoesNotWaitForCausedEffects() async {
    let gate = Gate()
    let store = Store<[String], String>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case "start": return .concatenate(.send("a"), .send("b"))
      case "a":
        return .run { send in
          await gate.wait()
          await send("timer")
        }
      default: return .none
      }
    }
    let task = store.send("start")
    // Then: `b` was reduced before `send` returned, while `a`'s timer still waits.
    #expect(store.state == ["start", "a", "b"])
    #expect(task.count == 1)
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "a", "b", "timer"])
  }

  @Test("a concatenation cancelled by id leaves running what its step's actions started")
  func concatenationCancelLeavesCausedEffects() async {
    let gate = Gate()
    let store = Store<[String], String>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case "start":
        return .concatenate(
          .send("a"), .run { _ in await gate.wait() }, .send("never")
        ).cancellable(id: ID.search)
      case "a":
        return .run { send in
          await gate.wait()
          await send("caused")
        }
      case "stop": return .cancel(id: ID.search)
      default: return .none
      }
    }
    let task = store.send("start")
    await eventually { gate.waiterCount == 2 }
    store.send("stop")
    gate.open()
    await finished(task)
    #expect(store.state == ["start", "a", "stop", "caused"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("a .send's action is queued when it starts: cancelling its wrapper then takes nothing back")
  func sendIsNotInFlight() {
    let store = makeStore()
    let sent = Effect.send(Event.log("sent")).cancellable(id: ID.search)
    store.send(.start(.merge(sent, .cancel(id: ID.search))))
    #expect(store.state == ["start", "sent"])
    #expect(store.snapshot.effects == 0)
  }

  @Test("StoreTask.cancel() inside a send drops the task's queued actions")
  func cancelInsideSendDropsQueuedActions() async {
    let gate = Gate()
    let held = Box<StoreTask>()
    let store = Store<[String], String>(asInApp: []) { log, action in
      log.append(action)
      switch action {
      case "start":
        return .run { send in
          await gate.wait()
          await send("delivered")
        }
      case "delivered": return .merge(.send("stop"), .send("queued"))
      case "stop":
        held.value?.cancel()
        return .none
      default: return .none
      }
    }
    held.value = store.send("start")
    gate.open()
    await finished(held.value)
    #expect(store.state == ["start", "delivered", "stop"])
  }
}

@MainActor
@Suite("Model: effects of any size and depth")
struct DepthTests {
  static let depth = 100_000

  /// The effect of step `step`: mostly `.send`s, with a `.run` every 1,000 steps.
  static func step(_ step: Int) -> Effect<Int> {
    step % 1_000 == 0 ? .run { send in await send(step) } : .send(step)
  }

  @Test("100,000 merges folded either way are built, run and released without deep recursion")
  func foldedMerges() async {
    for leftFold in [true, false] {
      var effect = Effect<Int>.none
      for step in 1...Self.depth {
        effect = leftFold ? .merge(effect, Self.step(step)) : .merge(Self.step(step), effect)
      }
      let folded = effect
      effect = .none
      let store = Store<[Int], Int>(asInApp: []) { log, step in
        log.append(step)
        return step == 0 ? folded : .none
      }
      // NB: 100,000 effects: a second in a plain build, more under a sanitizer.
      await finished(store.send(0), within: patience)
      expectSame(store.state.sorted(), Array(0...Self.depth))
      #expect(store.snapshot.effects == 0)
    }
  }

  @Test("100,000 concatenations folded either way run in order, then release without recursion")
  func foldedConcatenations() async {
    for leftFold in [true, false] {
      var effect = Effect<Int>.none
      for step in (1...Self.depth).reversed() where !leftFold {
        effect = .concatenate(Self.step(step), effect)
      }
      for step in 1...Self.depth where leftFold {
        effect = .concatenate(effect, Self.step(step))
      }
      let folded = effect
      effect = .none
      let store = Store<[Int], Int>(asInApp: []) { log, step in
        log.append(step)
        return step == 0 ? folded : .none
      }
      // NB: 100,000 effects: a second in a plain build, more under a sanitizer.
      await finished(store.send(0), within: patience)
      expectSame(store.state, Array(0...Self.depth))
      #expect(store.snapshot.effects == 0)
    }
  }

  @Test("100,000 concatenations each inside the previous one's merge run, then release in a loop")
  func concatenationsInsideMerges() async {
    for releaseStoreFirst in [false, true] {
      let gate = Gate()
      var effect = Effect<Int>.run { send in
        await gate.wait()
        await send(0)
      }
      // NB: Each step holds the next concatenation inside a merge: a chain of 100,000 jobs.
      for step in 1...Self.depth {
        effect = .concatenate(.merge(effect, .send(step)), .send(-step))
      }
      let folded = effect
      effect = .none
      var store: Store<Int, Int>? = Store(asInApp: 0) { count, action in
        count += 1
        return action == .min ? folded : .none
      }
      let task = store!.send(.min)
      if releaseStoreFirst { store = nil }
      gate.open()
      await finished(task)
      #expect(store.map { $0.state == 2 * Self.depth + 2 && $0.snapshot.effects == 0 } ?? true)
    }
  }

  @Test("100,000 nested cancellable wrappers and maps are released without deep recursion")
  func nestedWrappers() async {
    var effect = Effect<Int>.send(1)
    for id in 0..<Self.depth { effect = effect.cancellable(id: id) }
    let mapped = effect.map { $0 + 1 }
    let store = Store<[Int], Int>(asInApp: []) { log, value in
      log.append(value)
      return value == 0 ? mapped : .none
    }
    store.send(0)
    #expect(store.state == [0, 2])
    effect = .none
  }

  @Test("100,000 wrappers, each in a merge with a send: every send reduced, the .run under all ids")
  func wrappersInMerges() async {
    // Given: a .run under 100,000 wrappers, each in a merge with a .send beside it; -2 cancels
    // the outermost id.
    let gate = Gate()
    var effect = Effect<Int>.run { send in
      await gate.wait()
      await send(-1)
    }
    for id in 0..<Self.depth { effect = .merge(effect.cancellable(id: id), .send(id)) }
    let store = Store<[Int], Int>(asInApp: []) { log, value in
      log.append(value)
      if value == -2 { return .cancel(id: Self.depth - 1) }
      return value == Self.depth ? effect : .none
    }

    // When: it starts
    let task = store.send(Self.depth)

    // Then: each send is reduced once, and the .run runs under every id, which the outermost
    // cancels whole.
    expectSame(store.state.sorted(), Array(0...Self.depth))
    #expect(store.snapshot.effects == 1 && store.snapshot.ids == Self.depth)
    store.send(-2)
    #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0)
    gate.open()
    await finished(task)
    #expect(!store.state.contains(-1))
  }

  @Test(
    "100,000 concatenations, each a step under its own id in the previous one, start, cancel, end",
    arguments: [true, false])
  func concatenationsInsideWrappers(cancelling: Bool) async {
    // Given: a .run at the bottom of 100,000 levels, each `concatenate(level below, .send(n))`
    // with the level below under id n.
    let (gate, depth) = (Gate(), Self.depth)
    var effect = Effect<Int>.run { send in
      await gate.wait()
      await send(-1)
    }
    for level in 0..<depth { effect = .concatenate(effect.cancellable(id: level), .send(level)) }
    let folded = effect
    effect = .none
    let store = Store<[Int], Int>(asInApp: []) { log, value in
      log.append(value)
      if value == -2 { return .cancel(id: depth - 1) }
      return value == depth ? folded : .none
    }

    // When: it starts, every level is in flight, each under its id.
    let task = store.send(depth)
    #expect(store.snapshot.effects == depth + 1 && store.snapshot.ids == depth)
    if cancelling {
      // Then: cancelling the outermost id cancels all of that step; the outermost concatenation
      // moves on to its last step once the run, which ignores cancellation, has returned.
      store.send(-2)
      expectSame(store.state, [depth, -2])
      #expect(store.snapshot.effects == 1 && store.snapshot.ids == 0)
      gate.open()
      await finished(task)
      expectSame(store.state, [depth, -2, depth - 1])
    } else {
      // Then: the run delivers, and each level's last step follows, innermost first.
      gate.open()
      await finished(task)
      expectSame(store.state, [depth, -1] + Array(0..<depth))
      #expect(store.snapshot.effects == 0 && store.snapshot.ids == 0)
    }
  }

  @Test("a debounce of a duration no clock can reach waits until cancelled, without trapping")
  func absurdDebounce() async {
    let store = makeStore()
    let task = store.send(
      .start(
        Effect.run { send in await send(.log("never")) }
          .debounce(id: ID.a, for: .seconds(Int64.max))))
    #expect(task.count == 1)  // One task: the wait, then the work.
    store.send(.start(.cancel(id: ID.a)))
    await finished(task)
    #expect(store.state == ["start", "start"])
  }

  @Test("ids of AnyHashable compare as AnyHashable does: AnyHashable(1) is AnyHashable(1.0)")
  func anyHashableIDs() async {
    let gate = Gate()
    let store = makeStore()
    let task = store.send(
      .start(Effect.run { _ in await gate.wait() }.cancellable(id: AnyHashable(1))))
    store.send(.start(.cancel(id: AnyHashable(1.0))))
    #expect(store.snapshot.effects == 0)
    gate.open()
    await finished(task)
  }
}

@MainActor
@Suite("Model: observers")
struct ObserverTests {
  @Test("a listener cancelled by an earlier listener during a notification is not called")
  func cancelledDuringNotification() {
    let store = Store<Int, Int>(asInApp: 0) { count, _ in
      count += 1
      return .none
    }
    var heard: [String] = []
    var second: StoreSubscription?
    let first = store.subscribe { count in
      heard.append("first \(count)")
      if count == 1 { second?.cancel() }
    }
    second = store.subscribe { count in heard.append("second \(count)") }
    store.send(1)
    store.send(2)
    #expect(heard == ["first 0", "second 0", "first 1", "first 2"])
    first.cancel()
  }

  @Test("attaching scoped stores, which prunes released ones, notifies no one")
  func attachingNotifiesNoOne() {
    struct Opaque { var count = 0 }
    let store = Store<Opaque, Int>(asInApp: Opaque()) { state, _ in
      state.count += 1
      return .none
    }
    var heard = 0
    var children: [Store<Opaque, Int>] = []
    for _ in 0..<100 {
      let child = store.scope(state: { $0 }, action: { $0 })
      _ = child.subscribe { _ in heard += 1 }
      children.append(child)
    }
    #expect(heard == 100)  // each listener's first call, and no other
    store.send(1)
    #expect(heard == 200)
  }

  @Test("a scoped store's listener hears until cancelled, released scope or not, as a root's does")
  func scopedListenerOutlivesScope() {
    struct Opaque { var count = 0 }
    let store = Store<Opaque, Int>(asInApp: Opaque()) { state, _ in
      state.count += 1
      return .none
    }
    var heard: [String] = []
    weak var weakChild: Store<Opaque, Int>?
    var subscriptions: [StoreSubscription] = []
    do {
      // Given: a listener of a root store, and one of each kind of scoped store, both dropped.
      let child = store.scope(state: { $0 }, action: { $0 })
      let equatable = store.scope(state: \.count, action: { $0 })
      weakChild = child
      subscriptions.append(store.subscribe { heard.append("root \($0.count)") })
      subscriptions.append(child.subscribe { heard.append("child \($0.count)") })
      subscriptions.append(equatable.subscribe { heard.append("count \($0)") })
      store.send(1)
    }
    // When: the scoped stores are released, then the store changes.
    #expect(weakChild == nil)
    store.send(2)
    // Then: every listener hears, until its subscription is cancelled.
    for subscription in subscriptions { subscription.cancel() }
    store.send(3)
    let sends = ["root 0", "child 0", "count 0", "root 1", "child 1", "count 1"]
    #expect(heard == sends + ["root 2", "child 2", "count 2"])
    #expect(store.snapshot.scopes == 0)
  }
}
