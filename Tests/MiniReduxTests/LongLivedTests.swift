import Foundation
import Testing

@testable import MiniRedux

/// Counts the objects that effects' operations capture and are still alive: what a store keeps
/// of an effect shows up as its captures staying alive.
final class CaptureCounter: Sendable {
  final class Token: Sendable {
    let counter: CaptureCounter
    init(_ counter: CaptureCounter) {
      self.counter = counter
      counter.alive.withLock { $0 += 1 }
    }
    deinit { counter.alive.withLock { $0 -= 1 } }
  }

  fileprivate let alive = Locked(0)

  func token() -> Token { Token(self) }
  var count: Int { alive.current }
}

@MainActor
@Suite("Long-lived effects: the store holds what is in flight, not history")
struct LongLivedTests {
  enum Action: Sendable { case listen, message(Int), saved, tick(Int) }

  @Test("an effect delivering 20,000 messages that each start an effect holds none of them")
  func stream() async {
    // Given: a listener that delivers 20,000 messages and then stays alive at a gate; each
    // message starts a short "save" effect.
    let messages = 20_000
    let stayAlive = Gate()
    let saves = LiveCounter()
    let store = Store<Int, Action>(asInApp: 0) { saved, action in
      switch action {
      case .listen:
        return .run { send in
          for i in 1...messages { await send(.message(i)) }
          await stayAlive.wait()
        }
      case .message:
        return .run { send in
          saves.enter()
          defer { saves.leave(cancelled: false) }
          await send(.saved)
        }
      case .saved:
        saved += 1
        return .none
      case .tick:
        return .none
      }
    }

    // When: every message has been delivered and its save has ended.
    // NB: 40,000 effects: seconds in a plain build, more under a sanitizer.
    let listening = store.send(.listen)
    await eventually(patience) {
      store.state == messages && saves.live == 0 && store.snapshot.effects == 1
    }

    // Then: the listener's task holds the listener alone, not a record of each save it caused.
    #expect(listening.count == 1)
    #expect(store.snapshot.effects == 1)
    stayAlive.open()
    await finished(listening)
    #expect(listening.count == 0)
    #expect(store.snapshot.effects == 0)
  }

  @Test("a chain of 20,000 links, each effect sending the next tick, keeps a few links alive")
  func chain() async {
    // Given: a polling chain: `.tick(i)` returns an effect that sends `.tick(i + 1)`. Each
    // link's operation captures a token, alive as long as anything keeps the link.
    let links = 20_000
    let captures = CaptureCounter()
    var mostAlive = 0
    var mostHeld = 0
    let first = Box<StoreTask>()
    let store = Store<Int, Action>(asInApp: 0) { count, action in
      guard case .tick(let i) = action else { return .none }
      count = i
      mostAlive = max(mostAlive, captures.count)
      mostHeld = max(mostHeld, first.value?.count ?? 0)
      guard i < links else { return .none }
      let token = captures.token()
      return .run { send in
        _ = token
        await send(.tick(i + 1))
      }
    }

    // When: the chain runs to its end.
    let task = store.send(.tick(0))
    first.value = task
    // NB: 20,000 hops to the main actor and back: seconds in a plain build, more under a sanitizer.
    await finished(task, within: patience)

    // Then: its first StoreTask waited for the last link, and at no time were more than a few
    // links alive or held (each link ends while the next is starting).
    #expect(store.state == links)
    #expect(mostAlive <= 8, "links alive at once: \(mostAlive)")
    #expect(mostHeld <= 8, "effects held by the chain's task at once: \(mostHeld)")
    await eventually { captures.count == 0 }
    #expect(task.count == 0)
    #expect(store.snapshot.effects == 0)
  }

  @Test("a cancelled finish() waiter stops waiting, even while an operation ignores cancellation")
  func cancelledWaiterStopsWaiting() async {
    // Given: an effect that ignores cancellation (it waits at a gate), then tries to send.
    let gate = Gate()
    let reduced = Recorder<Action>()
    let store = Store<Int, Action>(asInApp: 0) { _, action in
      reduced.append(action)
      guard case .listen = action else { return .none }
      return .run { send in
        await gate.wait()
        await send(.saved)
      }
    }
    let task = store.send(.listen)
    let returned = Locked(false)
    let waiter = Task {
      await task.finish()
      returned.withLock { $0 = true }
    }
    await eventually { gate.waiterCount == 1 }

    // When: the waiting task is cancelled while the operation is still stuck at the gate.
    waiter.cancel()

    // Then: finish() returns before the operation ends, and the effect was cancelled: its late
    // send is dropped.
    await eventually { returned.current }
    #expect(task.isCancelled)
    gate.open()
    await eventually { task.count == 0 }
    #expect(reduced.values.count == 1)
  }

  @Test("a burst of 2,000 rows' effects, one left: the store's tables shrink to what is in flight")
  func burstLeavesNoRoom() async {
    // Given: 2,000 rows, each listening under its place and under one id of the user's.
    let rows = (0..<2_000).map(Listening.Row.init)
    let store = Store(initialState: Listening.State(rows: rows), Listening.reducer)
    let tasks = rows.map { store.send(.row($0.id, .listen)) }
    let registry = store.core as! Registry
    #expect(registry.inFlight.count == 2_000 && registry.watched.count == 2_000)

    // When: all rows but the first go, and their effects with them.
    store.send(.keepFirst)

    // Then: what the registry holds is the room for one effect, not for the burst.
    #expect(registry.inFlight.count == 1 && registry.inFlight.capacity < 4 * keptCapacity)
    #expect(registry.byID.count == 3 && registry.byID.capacity < 4 * keptCapacity)
    #expect(registry.byID.values.allSatisfy { $0.others.capacity < 4 * keptCapacity })
    #expect(registry.watched.count == 1 && registry.watched.capacity < 4 * keptCapacity)
    for task in tasks { task.cancel() }
    for task in tasks { await finished(task) }
  }

  @Test("an effect's container, or the table of effects, that empties gives back its room")
  func swapRemoveShrinks() {
    var table = Array(0..<10_000)
    while table.count > 1 { _ = swapRemove(&table, at: 0) }
    #expect(table.capacity < 4 * keptCapacity)
  }

  @Test("a concatenation of 10,000 steps at its last: it keeps no room for the steps that ran")
  func concatenationGivesBackItsSteps() async {
    let store = Store(initialState: 0) { (count: inout Int, steps: Int) -> Effect<Int> in
      count += 1
      guard steps > 0 else { return .none }
      let sends = (0..<steps).map { _ in Effect<Int>.send(0) }
      return .concatenate(sends + [.run { _ in await untilCancelled() }])
    }
    let task = store.send(10_000)
    #expect(store.state == 10_001)
    let registry = store.core as! Registry
    let chain = registry.inFlight.compactMap { $0.effect as? Concatenation<Int> }.first
    #expect(chain?.steps.isEmpty == true && (chain?.steps.capacity ?? .max) <= keptCapacity)
    task.cancel()
    await finished(task)
  }

  @Test("a thousand listeners, all but one cancelled: the store keeps room for one")
  func listenersShrink() {
    let store = Store(initialState: 0) { (_: inout Int, _: Int) in .none }
    let subscriptions = (0..<1_000).map { _ in store.subscribe { _ in } }
    for subscription in subscriptions.dropFirst() { subscription.cancel() }
    #expect(store.listeners.count == 1 && store.listeners.capacity < 4 * keptCapacity)
  }
}

/// Rows that each listen until cancelled, under one id of the user's.
private enum Listening {
  struct Row: Equatable, Identifiable { var id: Int }
  struct State: Equatable { var rows: [Row] }
  enum RowAction: Sendable { case listen }
  enum Action: Sendable { case row(Int, RowAction), keepFirst }

  static let reducer = Reduce<State, Action> { state, action in
    if case .keepFirst = action { state.rows.removeSubrange(1...) }
    return .none
  }
  .forEach(\.rows, action: Action.row) { _, _ in
    .run { _ in await untilCancelled() }.cancellable(id: "listen")
  }
}

@MainActor
@Suite("Soak: live heap of a long-lived effect and of a long chain")
struct LongLivedSoakTests {
  enum Action: Sendable { case listen, message(Int), saved, tick(Int) }

  nonisolated static let enabled = ProcessInfo.processInfo.environment["MINIREDUX_SOAK"] == "1"
  nonisolated static let checkpoints = (first: 20_000, last: 220_000)

  // NB: Opt-in like SoakTests: MINIREDUX_SOAK=1 swift test --filter LongLivedSoakTests
  @Test(
    "one effect delivering 220,000 messages, each starting a save: flat live heap",
    .enabled(if: enabled), .enabled(if: Sanitizer.current == .none),
    .enabled(if: liveHeapBytes() != nil))
  func stream() async {
    let (first, last) = Self.checkpoints
    let heap = Locked<[Int]>([])
    let saves = Locked(0)
    let store = Store<Int, Action>(asInApp: 0) { saved, action in
      switch action {
      case .listen:
        return .run { send in
          for i in 1...last {
            await send(.message(i))
            guard i == first || i == last else { continue }
            // Every save so far has ended: what is left is what the store holds for the stream.
            for _ in 0..<1_000_000 where saves.current < i { await Task.yield() }
            await Self.record(heap)
          }
        }
      case .message:
        return .run { send in await send(.saved) }
      case .saved:
        saved += 1
        saves.withLock { $0 += 1 }
        return .none
      case .tick:
        return .none
      }
    }
    // NB: Opt-in, and long: 220,000 messages and saves.
    await finished(store.send(.listen), within: .seconds(900))
    Self.report("stream", heap.current, last - first)
    #expect(store.state == last)
    #expect(heap.current.count == 2 && heap.current[1] - heap.current[0] < 1 << 20)
  }

  @Test(
    "a chain of 220,000 links, each link's effect sending the next: flat live heap",
    .enabled(if: enabled), .enabled(if: Sanitizer.current == .none),
    .enabled(if: liveHeapBytes() != nil))
  func chain() async {
    let (first, last) = Self.checkpoints
    let heap = Locked<[Int]>([])
    let store = Store<Int, Action>(asInApp: 0) { links, action in
      switch action {
      case .tick(let i):
        links += 1
        guard i < last else { return .none }
        return .run { send in
          if i == first || i == last - 1 { await Self.record(heap) }
          await send(.tick(i + 1))
        }
      case .listen, .message, .saved:
        return .none
      }
    }
    await finished(store.send(.tick(1)), within: .seconds(900))
    Self.report("chain", heap.current, last - first)
    #expect(store.state == last)
    #expect(heap.current.count == 2 && heap.current[1] - heap.current[0] < 1 << 20)
  }

  nonisolated static func record(_ heap: Locked<[Int]>) async {
    let bytes = liveHeapBytes()!
    heap.withLock { $0.append(bytes) }
  }

  static func report(_ shape: String, _ heap: [Int], _ span: Int) {
    guard heap.count == 2 else { return }
    let growth = heap[1] - heap[0]
    print(
      "[soak] \(shape): live heap \(heap[0]) → \(heap[1]) bytes over \(span) steps "
        + "(\(growth >= 0 ? "+" : "")\(growth), \((Double(growth) / Double(span)).formatted2) B/step)"
    )
  }
}
