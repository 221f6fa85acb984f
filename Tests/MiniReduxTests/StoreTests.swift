import Foundation
import Observation
import Testing

@testable import MiniRedux

/// A reducer that logs what it reduces and fails the test if it is ever re-entered.
@MainActor
final class Probe<Action: Sendable> {
  private(set) var depth = 0
  private(set) var maxDepth = 0

  func reduce(_ body: @escaping @MainActor (inout [String], Action) -> Effect<Action>)
    -> @MainActor (inout [String], Action) -> Effect<Action>
  {
    { [unowned self] state, action in
      depth += 1
      maxDepth = max(maxDepth, depth)
      defer { depth -= 1 }
      return body(&state, action)
    }
  }
}

@MainActor
final class Box<Value> {
  var value: Value?
}

@MainActor
@Suite("Rule 1: one action at a time, in order, iteratively")
struct OrderingTests {
  enum Action: Sendable, Equatable { case first, second, third, countdown(Int) }

  @Test("a send from inside the reducer is queued behind the current action, not nested")
  func reducerSendIsQueued() {
    let probe = Probe<Action>()
    let box = Box<Store<[String], Action>>()
    let store = Store<[String], Action>(
      initialState: [],
      probe.reduce { state, action in
        state.append("begin \(action)")
        if action == .first {
          let task = box.value!.send(.second)
          // Then: it is queued, so nothing was reduced yet and there is nothing to await.
          #expect(task === StoreTask.empty)
        }
        state.append("end \(action)")
        return .none
      })
    box.value = store
    defer { box.value = nil }  // NB: the reducer holds the box; break the cycle.

    store.send(.first)

    #expect(store.state == ["begin first", "end first", "begin second", "end second"])
    #expect(probe.maxDepth == 1)
  }

  @Test("a send from a subscriber is queued behind the current send, not nested")
  func subscriberSendIsQueued() {
    let probe = Probe<Action>()
    let store = Store<[String], Action>(
      initialState: [],
      probe.reduce { state, action in
        state.append("\(action)")
        return .none
      })
    var notifications: [[String]] = []
    store.subscribe { [weak store] state in
      notifications.append(state)
      if state == ["first"] { store?.send(.second) }
    }

    store.send(.first)

    #expect(store.state == ["first", "second"])
    #expect(notifications == [[], ["first"], ["first", "second"]])
    #expect(probe.maxDepth == 1)
  }

  @Test("a send from a listener's first call, made by subscribe, is queued behind that call")
  func firstCallSendIsQueued() {
    let store = Store<Int, Int>(initialState: 0) { count, n in (count += n, .none).1 }
    var (calls, depth) = ([String](), 0)
    let subscription = store.subscribe { [weak store] count in
      depth += 1
      defer { depth -= 1 }
      calls.append("\(count) at depth \(depth)")
      if count == 0 { store?.send(1) }
    }
    #expect(calls == ["0 at depth 1", "1 at depth 1"])
    store.send(2)
    #expect(calls.last == "3 at depth 1")
    subscription.cancel()
  }

  @Test("a send from an Observation observer is queued, not nested")
  func observerSendIsQueued() {
    let probe = Probe<Action>()
    let store = Store<[String], Action>(
      initialState: [],
      probe.reduce { state, action in
        state.append("\(action)")
        return .none
      })
    withObservationTracking {
      _ = store.state
    } onChange: {
      // NB: onChange runs synchronously in willSet, on the main actor here.
      MainActor.assumeIsolated { _ = store.send(.second) }
    }

    store.send(.first)

    #expect(store.state == ["first", "second"])
    #expect(probe.maxDepth == 1)
  }

  @Test("actions are reduced in the order they were sent")
  func order() {
    let store = Store<[String], Action>(initialState: []) { state, action in
      state.append("\(action)")
      return action == .first ? .merge(.send(.second), .send(.third)) : .none
    }
    store.send(.first)
    store.send(.third)
    #expect(store.state == ["first", "second", "third", "third"])
  }

  @Test("a chain of 100,000 .send effects runs without growing the stack")
  func longChain() {
    let store = Store<Int, Action>(initialState: 0) { count, action in
      guard case .countdown(let n) = action else { return .none }
      count += 1
      return n > 0 ? .send(.countdown(n - 1)) : .none
    }
    store.send(.countdown(100_000))
    #expect(store.state == 100_001)
  }
}

@MainActor
@Suite("Rule 2: .send is reduced before send returns")
struct SyncSendTests {
  enum Action: Sendable { case tap, echo(Int) }

  @Test(".send(a) is reduced before the send that produced it returns")
  func sendIsSynchronous() {
    let store = Store<[Int], Action>(initialState: []) { state, action in
      switch action {
      case .tap: return .merge(.send(.echo(1)), .send(.echo(2)))
      case .echo(let n):
        state.append(n)
        return n < 3 ? .send(.echo(n + 10)) : .none
      }
    }
    let task = store.send(.tap)
    #expect(store.state == [1, 2, 11, 12])
    #expect(task === StoreTask.empty)
  }
}

@MainActor
@Suite("State: observable, in place, subscribable")
struct StateTests {
  struct Big { var items = [Int](repeating: 0, count: 100_000) }
  enum Action: Sendable { case bump, echo(Int), triple }

  @Test("a reducer that changes one element of a 100,000-element array does not copy it")
  func inPlace() {
    let store = Store<Big, Action>(initialState: Big()) { state, _ in
      state.items[0] += 1
      return .none
    }
    let before = store.state.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    store.send(.bump)
    store.send(.bump)
    let after = store.state.items.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    #expect(store.state.items[0] == 2)
    #expect(before == after)
  }

  @Test("withObservationTracking sees every change")
  func observation() {
    let store = Store<Int, Action>(initialState: 0) { count, _ in
      count += 1
      return .none
    }
    let changes = Recorder<Int>()
    func track() {
      withObservationTracking {
        _ = store.state
      } onChange: {
        changes.append(1)
      }
    }
    for _ in 0..<3 {
      track()
      store.send(.bump)
    }
    #expect(changes.values.count == 3)
    #expect(store.state == 3)
  }

  @Test("subscribe delivers the current state at once, then once per send, until cancelled")
  func subscribe() {
    let store = Store<[Int], Action>(initialState: [0]) { state, action in
      switch action {
      case .triple: return .merge(.send(.echo(1)), .send(.echo(2)), .send(.echo(3)))
      case .echo(let n):
        state.append(n)
        return .none
      case .bump: return .none
      }
    }
    var seen: [[Int]] = []
    let subscription = store.subscribe { seen.append($0) }
    #expect(seen == [[0]])

    store.send(.triple)
    #expect(seen == [[0], [0, 1, 2, 3]])

    subscription.cancel()
    subscription.cancel()
    store.send(.echo(4))
    #expect(seen.count == 2)
  }

  @Test("a subscription ends with its store")
  func subscriptionEndsWithStore() {
    var store: Store<Int, Action>? = Store(initialState: 0) { _, _ in .none }
    weak let weakStore = store
    var seen = 0
    let subscription = store!.subscribe { _ in seen += 1 }
    store = nil
    #expect(weakStore == nil)
    subscription.cancel()
    #expect(seen == 1)
  }

  @Test("subscribe(to:) hears the selection now, then each send that changed it, until cancelled")
  func subscribeToSelection() {
    let store = Store<[Int], Action>(initialState: [0]) { state, action in
      if case .echo(let n) = action { state.append(n) }
      return .none
    }
    var seen: [Int] = []
    let subscription = store.subscribe(to: \.count) { seen.append($0) }
    store.send(.bump)
    store.send(.echo(1))
    store.send(.bump)
    subscription.cancel()
    store.send(.echo(2))
    #expect(seen == [1, 2])
  }

  @Test("states: the state now, then after each send; a slow consumer gets the newest; it ends")
  func states() async {
    let seen = await bounded(waitLimit) { () -> [Int?] in
      var store: Store<Int, Int>? = Store(initialState: 0) { state, action in
        state += action
        return .none
      }
      var states = store!.states.makeAsyncIterator()
      var seen = [await states.next()]
      store!.send(1)
      seen.append(await states.next())
      store!.send(1)
      store!.send(1)
      seen.append(await states.next())
      store = nil  // Released, the root store ends the sequence.
      seen.append(await states.next())
      return seen
    }
    #expect(seen == [0, 1, 3, nil])
  }

  @Test("a thousand listeners, each cancelled: the store keeps no room for them")
  func listenersLeaveNoRoom() {
    let store = Store(initialState: 0) { (_: inout Int, _: Int) in .none }
    let subscriptions = (0..<1_000).map { _ in store.subscribe { _ in } }
    for subscription in subscriptions { subscription.cancel() }
    #expect(store.listeners.isEmpty && store.listeners.capacity <= keptCapacity)
  }

  @Test("states: a consumer that leaves its loop ends its listener; the store keeps nothing of it")
  func statesConsumerStops() async {
    let store = Store(initialState: 0) { (state: inout Int, action: Int) in
      state += action
      return .none
    }
    for await state in store.states {
      #expect(store.listeners.count == 1)
      if state == 1 { break }
      store.send(1)
    }
    await eventually { store.listeners.isEmpty }
  }
}

@MainActor
@Suite("Rule 10: initialAction")
struct InitialActionTests {
  enum Action: Sendable { case load, loaded(String) }

  @Test("initialAction is reduced during init and its effects start then")
  func initialAction() async {
    let gate = Gate()
    let store = Store<[String], Action>(initialState: [], initialAction: .load) { state, action in
      switch action {
      case .load:
        state.append("loading")
        return .run { send in
          await gate.wait()
          await send(.loaded("done"))
        }
      case .loaded(let value):
        state.append(value)
        return .none
      }
    }
    // Then: reduced before init returned, and its effect is already registered.
    #expect(store.state == ["loading"])
    #expect(store.snapshot.effects == 1)

    await eventually { gate.waiterCount == 1 }
    gate.open()
    await eventually { store.state.count == 2 }
    #expect(store.state == ["loading", "done"])
  }
}

@MainActor
@Suite("Misuse inside the reducer: a MiniRedux message, never an exclusivity crash")
struct ReducerMisuseTests {
  enum Action: Sendable { case subscribe, add(Int) }

  @Test("subscribe inside the reducer works: the first call comes when the send has finished")
  func subscribeInReducer() {
    // Given a reducer that subscribes to its own store
    let box = Box<Store<[Int], Action>>()
    var seen: [[Int]] = []
    let store = Store<[Int], Action>(initialState: []) { state, action in
      switch action {
      case .subscribe:
        state.append(0)
        box.value!.subscribe { seen.append($0) }
        return .send(.add(1))
      case .add(let n):
        state.append(n)
        return .none
      }
    }
    box.value = store

    // When it subscribes, then the store changes again
    store.send(.subscribe)
    #expect(seen == [[0, 1]])
    store.send(.add(2))

    // Then the listener heard of the state after each send, once each
    #expect(seen == [[0, 1], [0, 1, 2]])
    box.value = nil  // The reducer holds the box: break the cycle.
  }

  @Test("subscribe(to:) inside the reducer works as subscribe does, hearing of changes only")
  func subscribeToInReducer() {
    let box = Box<Store<[Int], Action>>()
    var counts: [Int] = []
    let store = Store<[Int], Action>(initialState: []) { state, action in
      switch action {
      case .subscribe:
        state.append(0)
        box.value!.subscribe(to: \.count) { counts.append($0) }
        return .send(.add(1))
      case .add(let n):
        if n > 0 { state.append(n) }
        return .none
      }
    }
    box.value = store
    store.send(.subscribe)
    store.send(.add(0))  // Changes nothing: not heard.
    store.send(.add(2))
    #expect(counts == [2, 3])
    box.value = nil  // The reducer holds the box: break the cycle.
  }

  @Test("reading store.state inside the reducer stops with a message that says what to do")
  func stateReadInReducer() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      @MainActor func run() {
        let box = Box<Store<Int, Action>>()
        let store = Store<Int, Action>(initialState: 0) { state, _ in
          state = box.value!.state + 1
          return .none
        }
        box.value = store
        store.send(.add(1))
      }
      await run()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      message.contains(
        "MiniRedux: the state of a Store<Int, ReducerMisuseTests.Action> was read inside"))
    #expect(message.contains("Inside the reducer, use the `inout` state given"))
    #expect(!message.contains("Simultaneous accesses"))
  }

  @Test("reading a scoped store's state inside its parent's reducer stops with the same message")
  func scopedStateReadInReducer() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      struct Row: Equatable { var title = "" }
      @MainActor func run() {
        let box = Box<Store<Row, Action>>()
        let parent = Store<[Row], Action>(initialState: [Row()]) { rows, _ in
          rows[0].title = box.value!.state.title + "!"
          return .none
        }
        box.value = parent.scope(state: { $0[0] }, action: { $0 })
        parent.send(.add(1))
      }
      await run()
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "MiniRedux: the state of a Store<Array<Row>, ReducerMisuseTests.Action> was read"))
    }
  }
}

@Suite("Seeing what a store does")
struct VisibilityTests {
  @Test(
    "send off the main actor, as a Swift 5 app can, stops a debug build with a MiniRedux message",
    .enabled(if: _isDebugAssertConfiguration(), "release builds do not check"))
  func sendOffMain() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let store = await Store<Int, Int>(initialState: 0) { count, action in
        count += action
        return .none
      }
      // NB: What a Swift 5 app compiles with a warning: a main-actor method called elsewhere.
      let isolated: @MainActor (Int) -> Void = { _ = store.send($0) }
      let send = unsafeBitCast(isolated, to: (@Sendable (Int) -> Void).self)
      await Task.detached { send(1) }.value
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("MiniRedux: Store.send was called off the main actor; send from it"))
  }

  @Test("printChanges prints each action and the diff of the state it caused, or that it made none")
  func printChanges() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      struct State {
        var count = 0
        var name = "a"
      }
      await MainActor.run {
        let reduce: Reducer<State, Int> = { state, action in
          state.count += action
          return .none
        }
        let store = Store(initialState: State(), MiniRedux.printChanges(reduce))
        store.send(1)
        store.send(0)
      }
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    #expect(
      output == """
        received 1
          State(
        -   count: 0
        +   count: 1
            name: "a"
          )
        received 0 (no change)

        """)
  }

  @Test("printChanges(to:) writes each action's text where it is told, and prints nothing")
  func printChangesTo() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      await MainActor.run {
        var log: [String] = []
        let reduce: Reducer<Int, Int> = { state, action in
          state += action
          return .none
        }
        let store = Store(initialState: 0, MiniRedux.printChanges(reduce) { log.append($0) })
        store.send(2)
        store.send(0)
        guard log == ["received 2\n- 0\n+ 2", "received 0 (no change)"] else { exit(1) }
      }
    }
    #expect(result?.standardOutputContent.isEmpty == true)
  }
}

/// A state that is a class, whose changed field is its superclass's.
class Named: Equatable {
  var name = ""
  init() {}
  static func == (lhs: Named, rhs: Named) -> Bool { lhs.name == rhs.name }
}
final class Member: Named {
  var age = 0
  override init() { super.init() }
  init(copying other: Member) {
    age = other.age
    super.init()
    name = other.name
  }
}

extension VisibilityTests {
  @Test("printChanges shows a change of a field a class state inherits, not '(no change)'")
  @MainActor func printChangesOfAnInheritedField() {
    var log: [String] = []
    let reduce: Reducer<Member, String> = { state, name in
      state = Member(copying: state)  // NB: A new object, so that the state before stays as it was.
      state.name = name
      return .none
    }
    let store = Store(initialState: Member(), MiniRedux.printChanges(reduce) { log.append($0) })
    store.send("Ada")
    #expect(
      log == [
        """
        received "Ada"
          Member(
        -   name: ""
        +   name: "Ada"
            age: 0
          )
        """
      ])
  }
}

/// A task-local value, as swift-dependencies keeps its overrides.
enum Ambient {
  @TaskLocal static var name = "default"
}

@MainActor
@Suite("A store's context: task-local values reach the reducer and every effect")
struct StoreContextTests {
  enum Action: Equatable, Sendable { case start, seen(String), seenLater(String) }

  static func reduce(_ seen: inout [String], _ action: Action) -> Effect<Action> {
    switch action {
    case .start:
      seen.append("reducer: \(Ambient.name)")
      return .run { send in
        await send(.seen(Ambient.name))
        await Task.yield()
        await send(.seenLater(Ambient.name))
      }
    case .seen(let name), .seenLater(let name):
      seen.append("effect: \(name), its reducer: \(Ambient.name)")
      return .none
    }
  }

  @Test("a Store's context binds a task-local for its reducer and its effects, sent from outside")
  func store() async {
    let store = Store(initialState: [String](), Self.reduce) { reduce in
      Ambient.$name.withValue("test") { reduce() }
    }
    await finished(store.send(.start))
    #expect(
      store.state == [
        "reducer: test", "effect: test, its reducer: test", "effect: test, its reducer: test",
      ])
  }

  @Test("a TestStore made with a context keeps it for sends made outside it")
  func testStore() async throws {
    let store = TestStore(initialState: [String](), Self.reduce) { reduce in
      Ambient.$name.withValue("test") { reduce() }
    }
    store.timeout = patience
    try await store.send(.start) { $0 = ["reducer: test"] }
    try await store.receive(.seen("test")) { $0.append("effect: test, its reducer: test") }
    try await store.receive(.seenLater("test")) { $0.append("effect: test, its reducer: test") }
    try await store.finish()
  }

  @Test("a context that does not call reduce, or calls it twice, is reported")
  func misuse() async {
    let skipping = Store(initialState: [String](), Self.reduce) { _ in }
    let (_, skipped) = await capturingReports { skipping.send(.seen("x")) }
    #expect(skipping.state.isEmpty)
    #expect(skipped.first?.contains("called reduce 0 times") == true)
    let twice = Store(initialState: [String](), Self.reduce) { reduce in
      reduce()
      reduce()
    }
    let (_, doubled) = await capturingReports { twice.send(.seen("x")) }
    #expect(twice.state == ["effect: x, its reducer: default"])
    #expect(doubled.first?.contains("called reduce 2 times") == true)
  }
}

@MainActor
@Suite("Reports fail the test that runs")
struct ReportsFailTests {
  @Test("a plain Store's report, in a test, fails it at once; a test store's fails its step only")
  func reportFailsTheTest() async throws {
    let store = Store(initialState: 0) { (_: inout Int, _: Bool) in .dismiss }
    withKnownIssue {
      store.send(true)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("MiniRedux: .dismiss for true did nothing") }
    }
    // A test store's report is the failure of its step, recorded once.
    let testStore = TestStore(initialState: 0) { (_: inout Int, _: Bool) in .dismiss }
    try await withKnownIssue {
      try await testStore.send(true)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("send(true): MiniRedux: .dismiss") }
    }
    try await testStore.finish()
  }
}
