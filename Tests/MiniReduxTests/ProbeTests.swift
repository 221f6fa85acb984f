import Foundation
import Observation
import Testing

@testable import MiniRedux

// Probes of a second adversarial review. Each states the rule it checks (Guarantees.md, another
// article, or a doc comment). Three found rules broken, since mended: a receive that skipped
// actions as they came never timed out, an effect's error after the last step was lost with its
// test store, and a release left a task with a finished effect not cancelled.

private struct ProbeError: Error {}

// MARK: - TestStore

/// An effect that ticks every few milliseconds until cancelled.
private enum Ticker {
  enum Action: Equatable, Sendable { case start, tick, done }
  static let reduce: Reducer<Int, Action> = { count, action in
    switch action {
    case .start:
      return .run { send in
        while !Task.isCancelled {
          try await Task.sleep(for: .milliseconds(20))
          await send(.tick)
        }
      }
    case .tick:
      count += 1
      return .none
    case .done: return .none
    }
  }
}

@MainActor
@Suite("Probe: TestStore waits and reports")
struct ProbeTestStoreTests {
  // Rule (Guarantees, Tests): "Every wait the library offers a test ends: a test store's
  // `receive` and `finish` after their timeout". TestingAFeature: with Exhaustivity.off,
  // "`receive` skips received actions until one matches".
  @Test("with exhaustivity off, receive of an action that never comes ends after its timeout")
  func receiveOffEndsAmidOtherActions() async throws {
    let store = TestStore(initialState: 0, Ticker.reduce)
    store.exhaustivity = .off
    let task = try await store.send(.start)
    var outcome: Bool?
    let issues = await issuesRecorded(reports: true) {
      outcome = await bounded(.seconds(5)) {
        try? await store.receive(.done, timeout: .milliseconds(200))
        return true
      }
    }
    #expect(
      outcome == true,
      "receive(.done, timeout: 0.2s) had not returned after 5 s: each skipped .tick restarts its wait"
    )
    #expect(issues.contains { $0.contains("receive: expected") }, "\(issues)")
    task.cancel()
    await finished(task)
    store.skipReceivedActions()
    try await store.finish()
  }

  // Rule (Guarantees, Errors): "Without one [a catch: handler], MiniRedux reports it [...] and in a
  // TestStore it fails the next step (or `finish()`)"; "What MiniRedux reports [...] fails the step
  // of a TestStore it happened in; else, while a Swift Testing or XCTest test runs, that test".
  // Tests: "An effect whose operation returned before a test store's send returned has ended, so a
  // test may end right after that send."
  @Test("an error thrown by an effect of the last step fails the test that ends after that step")
  func errorOfTheLastStepIsNotLost() async throws {
    let issues = await issuesRecorded(reports: true) {
      do {
        let store = TestStore(initialState: 0) { (_: inout Int, _: Bool) in
          .run { _ in throw ProbeError() }
        }
        _ = try? await store.send(true)
        // The test goes on with other work, then ends: the store is released.
        for _ in 0..<50 { await Task.yield() }
      }
      // Long enough for a report still on its way to arrive, after the store is gone.
      try? await Task.sleep(for: .milliseconds(300))
    }
    #expect(
      issues.contains { $0.contains("threw") },
      "the error of an effect that ended was reported to no one: \(issues)")
  }

  // Rule (Guarantees, Errors): "A cancelled effect is silent"; "A `Send` called after its
  // operation has returned delivers nothing, and MiniRedux reports it." An effect cancelled by
  // a test store's `finish()` timeout, that sends once it unblocks, is cancelled, not finished.
  @Test("an effect cancelled by finish()'s timeout that sends later is silent and not reduced")
  func effectCancelledByFinishIsSilent() async throws {
    let gate = Gate()
    let store = TestStore(initialState: 0) { (count: inout Int, action: Int) in
      count += action
      guard action == 0 else { return .none }
      return .run { send in
        await gate.wait()  // Ignores cancellation.
        await Task.detached { await send(5) }.value  // Not the effect's task: not cancelled.
      }
    }
    let issues = await issuesRecorded(reports: true) {
      _ = try? await store.send(0)
      try? await store.finish(timeout: .milliseconds(200))
    }
    #expect(issues.contains { $0.contains("still running") }, "\(issues)")
    let late = await issuesRecorded(reports: true) {
      gate.open()
      try? await Task.sleep(for: .milliseconds(200))
    }
    #expect(late.isEmpty, "\(late)")
    #expect(store.state == 0)
  }
}

// MARK: - StoreTask, concatenations, debounce

private enum Steps {
  enum Action: Equatable, Sendable { case start, a, b, c, late, debounced, debouncedNone, hello }
  struct State: Equatable { var log: [Action] = [] }
}

/// Holds a value for closures that run later on the main actor.
@MainActor private final class ProbeBox<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

@MainActor
@Suite("Probe: StoreTask with concatenations, debounce, and effects that send while cancelled")
struct ProbeStoreTaskTests {
  // Rule (Guarantees, Cancellation): "`StoreTask/cancel()` cancels the effects of its `send` [...].
  // From that moment nothing they send is reduced, the actions they queued are dropped, and
  // effects their actions would start do not start"; "`concatenate` [...] starts no more once it
  // is cancelled".
  @Test("a listener that cancels the task mid-concatenation stops the concatenation's next steps")
  func listenerCancelsMidConcatenation() async {
    let task = ProbeBox<StoreTask?>(nil)
    let store = Store(initialState: Steps.State()) {
      (state: inout Steps.State, action: Steps.Action) in
      state.log.append(action)
      guard action == .start else { return .none }
      return .concatenate(
        .run { send in await send(.a) }, .send(.b), .run { send in await send(.c) })
    }
    store.subscribe { state in if state.log.last == .a { task.value?.cancel() } }
    task.value = store.send(.start)
    await finished(task.value)
    #expect(store.state.log == [.start, .a])
    #expect(task.value?.isCancelled == true)
    #expect(store.snapshot.effects == 0)
  }

  // Rule (Guarantees, Cancellation): "A cancelled effect cannot deliver actions, even if its
  // operation ignores cancellation"; "A cancelled effect is silent".
  @Test(
    "an effect that sends from its cancellation handler, through a new task, is dropped silently")
  func sendFromCancellationHandler() async {
    let store = Store(initialState: Steps.State()) {
      (state: inout Steps.State, action: Steps.Action) in
      state.log.append(action)
      guard action == .start else { return .none }
      return .run { send in
        await withTaskCancellationHandler {
          await untilCancelled()
        } onCancel: {
          Task { await send(.late) }
        }
      }
    }
    let reports = await issuesRecorded(reports: true) {
      let task = store.send(.start)
      task.cancel()
      await finished(task)
      try? await Task.sleep(for: .milliseconds(100))
    }
    #expect(store.state.log == [.start])
    #expect(reports.isEmpty, "\(reports)")
  }

  // Rule (Guarantees, Composition and time): "A debounce's pause is not an effect of its own: a
  // debounced effect cancelled during its pause or its work counts as cancelled for
  // `StoreTask/isCancelled`, and one whose work finishes does not. This holds [...] for any other
  // debounced effect, which is a concatenation of the pause and the effect." And StoreTask: "A
  // task with no effects counts as cancelled": a debounced `.none` is its pause alone, no effect.
  @Test("a debounced .send that finishes is not cancelled; a debounced .none, no effect, reads so")
  func debouncedNoneIsNotCancelled() async {
    let store = Store(initialState: Steps.State()) {
      (state: inout Steps.State, action: Steps.Action) in
      state.log.append(action)
      switch action {
      case .debounced:
        return Effect.send(.hello).debounce(id: "d", for: .milliseconds(1))
      case .debouncedNone:
        return Effect<Steps.Action>.none.debounce(id: "d", for: .milliseconds(1))
      default: return .none
      }
    }
    let some = store.send(.debounced)
    await finished(some)
    #expect(some.isCancelled == false)
    let none = store.send(.debouncedNone)
    await finished(none)
    #expect(none.isCancelled, "a task with no effects counts as cancelled, as TCA's .none does")
  }

  // Rule (Guarantees, Composition and time): "One cancelled while it waits never starts" (debounce);
  // StoreTask.cancel(): "effects their actions would start do not start".
  @Test("a debounced .send cancelled by its StoreTask during its pause is never reduced")
  func debouncedSendCancelledByTask() async {
    let clock = ManualClock()
    let store = Store(initialState: Steps.State()) {
      (state: inout Steps.State, action: Steps.Action) in
      state.log.append(action)
      guard action == .debounced else { return .none }
      return Effect.send(.hello).debounce(id: "d", for: .seconds(1), clock: clock)
    }
    let task = store.send(.debounced)
    await eventually { clock.sleeperCount == 1 }
    task.cancel()
    clock.advance(by: .seconds(2))
    await finished(task)
    #expect(store.state.log == [.debounced])
    #expect(task.isCancelled)
  }

  // Rule (Guarantees, Starting and ending effects): "Releasing a store cancels its effects: their
  // `StoreTask`s read `isCancelled == true` once they have ended."
  @Test(
    "a task whose first step finished reads isCancelled once its store's release ended the rest")
  func releaseAfterAFinishedStep() async {
    let gate = Gate()
    var store: Store<Steps.State, Steps.Action>? = Store(initialState: Steps.State()) {
      (state: inout Steps.State, action: Steps.Action) in
      state.log.append(action)
      guard action == .start else { return .none }
      return .concatenate(.run { _ in await gate.wait() }, .run { _ in await untilCancelled() })
    }
    let task = store!.send(.start)
    gate.open()
    await eventually { task.finishedOne && task.count == 2 }  // Step 1 ended; step 2 runs.
    store = nil
    await finished(task)
    #expect(task.isCancelled, "the store's release cancelled the effect still running")
  }

  // Rule (Guarantees, Order): "A `send` made while an action is being reduced [...] is queued
  // behind it, never nested." HowItWorks: the action is reduced "inside the store's `context`".
  @Test("a send made inside the context: closure, before reduce, is queued behind the action")
  func sendFromContextIsQueued() async {
    let store = ProbeBox<Store<Steps.State, Steps.Action>?>(nil)
    let sentOnce = ProbeBox(false)
    store.value = Store(
      initialState: Steps.State(),
      { (state: inout Steps.State, action: Steps.Action) in
        state.log.append(action)
        return .none
      },
      context: { reduce in
        if !sentOnce.value {
          sentOnce.value = true
          store.value?.send(.b)
        }
        reduce()
      })
    store.value?.send(.a)
    #expect(store.value?.state.log == [.a, .b])
    store.value = nil  // NB: The context holds the box that holds the store.
  }
}

// MARK: - Re-entrancy: scoped stores made and released during a notification

private enum Pair {
  struct State: Equatable { var left = 0, right = 0 }
  enum Action: Equatable, Sendable { case left(Side), right(Side) }
  enum Side: Equatable, Sendable { case increment }
  static let reduce: Reducer<State, Action> = { state, action in
    switch action {
    case .left: state.left += 1
    case .right: state.right += 1
    }
    return .none
  }
}

@MainActor private final class Changes {
  var count = 0
  func track(_ read: @escaping @MainActor () -> Void) {
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated { self.count += 1 }
    }
  }
}

@MainActor
@Suite("Probe: re-entrancy")
struct ProbeReentrancyTests {
  // Rule (Guarantees, Observing): "A scoped store with `Equatable` state tells its observers only
  // when its state changed, at every level of nesting"; "A released scoped store costs its parent
  // nothing from the next `send` on".
  @Test("scoped stores made, read and released inside a listener hear later sends, and no crash")
  func scopesMadeDuringNotification() async {
    let store = Store(initialState: Pair.State(), Pair.reduce)
    let made = ProbeBox<[Store<Int, Pair.Side>]>([])
    store.subscribe { [weak store] _ in
      guard let store else { return }
      let scope = store.scope(state: \.left, action: Pair.Action.left)
      _ = scope.state  // Attached during the notification.
      let dropped = store.scope(state: \.right, action: Pair.Action.right)
      _ = dropped.state  // Released at once.
      made.value.append(scope)
      if made.value.count > 3 { made.value.removeFirst() }
    }
    let changes = Changes()
    for _ in 0..<3 { store.send(.left(.increment)) }
    let latest = made.value.last!
    changes.track { _ = latest.state }
    store.send(.right(.increment))
    #expect(changes.count == 0)
    store.send(.left(.increment))
    #expect(changes.count == 1)
    latest.send(.increment)
    #expect(store.state.left == 5)
    #expect(made.value.count == 3)
    made.value = []  // NB: The listener, which the store holds, holds scopes that hold the store.
  }

  // Rule (Guarantees, Order): "A `send` made while an action is being reduced (by a subscriber,
  // an observer [...]) is queued behind it, never nested", and Observing: listeners are told "in
  // the order they subscribed (a scoped store's are its root store's)".
  @Test("a scoped store's listener that sends while its parent notifies is queued, in order")
  func scopedListenerSendsWhileParentNotifies() async {
    let store = Store(initialState: Pair.State(), Pair.reduce)
    let left = store.scope(state: \.left, action: Pair.Action.left)
    let heard = ProbeBox<[String]>([])
    store.subscribe { heard.value.append("root \($0.left) \($0.right)") }
    left.subscribe { [weak left] value in  // NB: Weakly: a scoped store holds its parent.
      heard.value.append("left \(value)")
      if value == 1 { left?.send(.increment) }
    }
    store.subscribe { heard.value.append("root2 \($0.left) \($0.right)") }
    heard.value = []
    store.send(.left(.increment))
    #expect(
      heard.value == [
        "root 1 0", "left 1", "root2 1 0",  // First notification, the send queued.
        "root 2 0", "left 2", "root2 2 0",
      ])
  }
}

// MARK: - Child features

private enum ProbeRows {
  struct Row: Equatable, Identifiable {
    let id: Int
    var heard = 0
  }
  enum RowAction: Equatable, Sendable {
    case listen, heard, close(sibling: Int), dismiss, delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case remove(Int) }
  static let row: Reducer<Row, RowAction> = { row, action in
    switch action {
    case .listen: return .run { _ in await untilCancelled() }
    case .heard:
      row.heard += 1
      return .none
    case .close(let sibling): return .concatenate(.send(.delegate(.remove(sibling))), .dismiss)
    case .dismiss: return .dismiss
    case .delegate: return .none
    }
  }
  struct State: Equatable { var rows: [Row] = (1...3).map { Row(id: $0) } }
  enum Action: Equatable, Sendable { case row(Int, RowAction), remove(Int) }
  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .row(_, .delegate(.remove(let id))), .remove(let id): state.rows.removeAll { $0.id == id }
    default: break
    }
    return .none
  }
  .forEach(\.rows, action: Action.row, child: row)

  struct Contiguous: Equatable { var rows = ContiguousArray((1...3).map { Row(id: $0) }) }
  static let contiguous = Reduce<Contiguous, Action> { state, action in
    if case .remove(let id) = action { state.rows.removeAll { $0.id == id } }
    return .none
  }
  .forEach(\.rows, action: Action.row, child: row)
}

@MainActor
@Suite("Probe: child features")
struct ProbeChildTests {
  // Rule (Guarantees, A child that dismisses itself): "After a step of a concatenation [...] the
  // parent reduces `.delegate(x)` while the child is still there, then the child goes, its effects
  // end, and nothing is reported"; Child features: effects end when "an element leaves".
  @Test("a row that closes a sibling before it, then dismisses itself, removes exactly both")
  func rowDismissesAfterRemovingEarlierSibling() async {
    let store = Store(initialState: ProbeRows.State(), ProbeRows.reducer.reduce)
    store.send(.row(2, .listen))
    store.send(.row(3, .listen))
    let reports = await issuesRecorded(reports: true) { store.send(.row(3, .close(sibling: 1))) }
    #expect(store.state.rows.map(\.id) == [2])
    #expect(store.snapshot.effects == 1, "row 2's effect keeps running; row 3's ended")
    #expect(reports.isEmpty, "\(reports)")
    store.send(.remove(2))
    #expect(store.snapshot.effects == 0)
  }

  @Test("a row that closes a sibling after it, which runs an effect, then dismisses itself")
  func rowDismissesAfterRemovingLaterSibling() async {
    let store = Store(initialState: ProbeRows.State(), ProbeRows.reducer.reduce)
    store.send(.row(2, .listen))
    let reports = await issuesRecorded(reports: true) { store.send(.row(1, .close(sibling: 2))) }
    #expect(store.state.rows.map(\.id) == [3])
    #expect(store.snapshot.effects == 0)
    #expect(reports.isEmpty, "\(reports)")
  }

  // Rule (Guarantees, Child features) for a collection that is not an Array: effects end when an
  // element leaves; `.dismiss` removes the element of a RangeReplaceableCollection.
  @Test("rows in a ContiguousArray: removal ends effects, .dismiss removes the row")
  func contiguousArrayRows() async {
    let store = Store(initialState: ProbeRows.Contiguous(), ProbeRows.contiguous.reduce)
    store.send(.row(1, .listen))
    store.send(.row(2, .listen))
    let reports = await issuesRecorded(reports: true) { store.send(.row(2, .dismiss)) }
    #expect(Array(store.state.rows.map(\.id)) == [1, 3])
    #expect(store.snapshot.effects == 1)
    store.send(.remove(1))
    #expect(store.snapshot.effects == 0)
    #expect(reports.isEmpty, "\(reports)")
  }

  // Rule (Guarantees, Order): "Effects of any depth and size work: [...] 100,000 nested
  // `cancellable`s, are built, run and released without deep recursion"; a child's ids are renamed
  // into its place, and a parent's `.cancel(id:)` reaches down.
  @Test("a row's effect under 100,000 nested ids ends with the row and by its parent's cancel")
  func deepIdsInARow() async {
    let depth = 100_000
    let row: Reducer<ProbeRows.Row, ProbeRows.RowAction> = { _, action in
      guard action == .listen else { return .none }
      return (0..<depth).reduce(Effect.run { _ in await untilCancelled() }) {
        $0.cancellable(id: $1)
      }
    }
    let reducer = Reduce<ProbeRows.State, ProbeRows.Action> { state, action in
      switch action {
      case .remove(let id):
        state.rows.removeAll { $0.id == id }
        return .none
      case .row(_, .heard): return .cancel(id: depth / 2)
      default: return .none
      }
    }
    .forEach(\.rows, action: ProbeRows.Action.row, child: row)
    let store = Store(initialState: ProbeRows.State(), reducer.reduce)
    store.send(.row(1, .listen))
    store.send(.row(2, .listen))
    #expect(store.snapshot.effects == 2)
    store.send(.remove(1))
    #expect(store.snapshot.effects == 1)
    store.send(.row(3, .heard))  // The parent cancels the id `depth / 2`, in every row.
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }
}

// MARK: - Lists at scale

/// A row that counts the reads of its `id`: the work of finding rows.
private struct CountedRow: Identifiable, Equatable {
  nonisolated(unsafe) static var reads = 0  // NB: Sound: written by the serialized suite only.
  let raw: Int
  var taps = 0
  var id: Int {
    Self.reads += 1
    return raw
  }
}

private enum Tap: Equatable, Sendable { case tap }
private enum ListAction: Equatable, Sendable { case row(Int, Tap) }

private func tapRow(_ row: inout CountedRow, _: Tap) -> Effect<Tap> {
  row.taps += 1
  return .none
}

/// The reads of row ids that one send to the middle row costs, after a first send indexed the rows.
@MainActor private func readsPerSend<List>(_ rows: List, _ reducer: Reduce<List, ListAction>) -> Int
{
  let store = Store(initialState: rows, reducer.reduce)
  store.send(.row(50_000, .tap))
  CountedRow.reads = 0
  store.send(.row(50_001, .tap))
  return CountedRow.reads
}

@MainActor
@Suite("Probe: lists of 100,000 rows", .serialized)
struct ProbeScaleTests {
  fileprivate static let rows = (0..<100_000).map { CountedRow(raw: $0) }

  // Rule (Guarantees, Actions for a child that is gone): "Finding a row of `forEach` by id costs
  // constant expected time at any list size, plus one pass over the rows after rows before it
  // moved." Nothing moved between the two sends.
  @Test("a send to a row of an Array reads a few ids (confirms the rule)")
  func arrayRows() {
    let reducer = Reduce<[CountedRow], ListAction> { _, _ in .none }
      .forEach(\.self, action: ListAction.row, child: tapRow)
    #expect(readsPerSend(Self.rows, reducer) < 100)
  }
}
