import Foundation
import Testing

@testable import MiniRedux

/// Ids of these tests: an enum, a struct and a class, as clients use.
private enum RID: Hashable, Sendable { case a, b, c, outer, inner }
private struct StructRID: Hashable, Sendable { var n: Int }
private final class ClassRID: Hashable, @unchecked Sendable {
  let n: Int
  init(_ n: Int) { self.n = n }
  static func == (lhs: ClassRID, rhs: ClassRID) -> Bool { lhs.n == rhs.n }
  func hash(into hasher: inout Hasher) { hasher.combine(n) }
}

/// An effect that runs until cancelled, then logs `line` (dropped, as it was cancelled).
private func forever(_ line: String) -> Effect<Event> {
  .run { send in
    await untilCancelled()
    await send(.log(line))
  }
}

@MainActor
@Suite("Ids nested and repeated, finish() waiters")
struct IDTests {
  @Test("an id twice around one effect registers it once; cancelling it leaves nothing")
  func duplicateID() async {
    let store = makeStore()
    let task = store.send(.start(forever("a").cancellable(id: RID.a).cancellable(id: RID.a)))
    #expect(store.snapshot.effects == 1)
    #expect(store.snapshot.ids == 1)
    store.send(.start(.cancel(id: RID.a)))
    #expect(task.isCancelled)
    await finished(task)
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    #expect(store.state == ["start", "start"])
  }

  @Test("an id twice, at the ends of three, with another effect under it too")
  func duplicateIDsWithOthers() async {
    let store = makeStore()
    let first = store.send(
      .start(forever("1").cancellable(id: RID.a).cancellable(id: RID.b).cancellable(id: RID.a)))
    let second = store.send(.start(forever("2").cancellable(id: RID.a)))
    let third = store.send(.start(forever("3").cancellable(id: RID.b)))
    #expect(store.snapshot == (3, 2, 0, 0))
    // Cancelling the first by b also cancels the third; a still holds the second.
    store.send(.start(.cancel(id: RID.b)))
    #expect(first.isCancelled && third.isCancelled && !second.isCancelled)
    #expect(store.snapshot.effects == 1)
    #expect(store.snapshot.ids == 1)
    store.send(.start(.cancel(id: RID.a)))
    #expect(second.isCancelled)
    await finished([first, second, third])
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("three nested ids: cancelling any one of them cancels the effect and unregisters all")
  func threeNestedIDs() async {
    for id in [RID.a, .b, .c] {
      let store = makeStore()
      let task = store.send(
        .start(forever("x").cancellable(id: RID.a).cancellable(id: RID.b).cancellable(id: RID.c)))
      #expect(store.snapshot.ids == 3)
      store.send(.start(.cancel(id: id)))
      #expect(task.isCancelled, "cancelling \(id)")
      #expect(store.snapshot.effects == 0, "cancelling \(id)")
      #expect(store.snapshot.ids == 0, "cancelling \(id)")
      await finished(task)
    }
  }

  @Test("inner and outer ids in a merge: the inner cancels its part, the outer the rest")
  func innerOuterInMerge() async {
    let store = makeStore()
    let task = store.send(
      .start(
        .merge(
          forever("inner").cancellable(id: RID.inner),
          forever("plain"),
          forever("other").cancellable(id: StructRID(n: 1)).cancellable(id: ClassRID(2))
        ).cancellable(id: RID.outer)))
    #expect(store.snapshot.effects == 3)
    #expect(store.snapshot.ids == 4)
    store.send(.start(.cancel(id: RID.inner)))
    #expect(store.snapshot.effects == 2)
    #expect(store.snapshot.ids == 3)
    store.send(.start(.cancel(id: ClassRID(2))))
    #expect(store.snapshot.effects == 1)
    #expect(store.snapshot.ids == 1)
    store.send(.start(.cancel(id: RID.outer)))
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    await finished(task)
    #expect(task.isCancelled)
  }

  @Test("cancelInFlight at two depths, in a merge: the newer send's effects replace the older's")
  func cancelInFlightAtDepths() async {
    let store = makeStore()
    func effect(_ n: Int) -> Effect<Event> {
      .merge(
        forever("a\(n)").cancellable(id: RID.a, cancelInFlight: true),
        forever("b\(n)").cancellable(id: RID.b)
      ).cancellable(id: RID.outer, cancelInFlight: true)
    }
    let first = store.send(.start(effect(1)))
    #expect(store.snapshot.effects == 2)
    let second = store.send(.start(effect(2)))
    #expect(first.isCancelled)
    #expect(!second.isCancelled)
    #expect(store.snapshot.effects == 2)
    #expect(store.snapshot.ids == 3)
    // Only the inner one, in flight: a newer send cancels the older's `a` only.
    let third = store.send(.start(forever("a3").cancellable(id: RID.a, cancelInFlight: true)))
    #expect(store.snapshot.effects == 2)
    store.send(.start(.cancel(id: RID.outer)))
    #expect(store.snapshot.effects == 1)
    #expect(store.snapshot.ids == 1)
    store.send(.start(.cancel(id: RID.a)))
    await finished([first, second, third])
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }

  @Test("the steps of a concatenation under ids run under them; cancelling an id ends it all")
  func concatenationInheritsIDs() async {
    for id in [RID.outer, .inner] {
      let (store, gate) = (makeStore(), Gate())
      let task = store.send(
        .start(
          .concatenate(
            .run { send in
              await gate.wait()
              await send(.log("step 1"))
            },
            forever("step 2").cancellable(id: RID.b),
            .send(.log("step 3"))
          )
          .cancellable(id: RID.inner).cancellable(id: RID.outer)))
      #expect(store.snapshot.effects == 2)
      #expect(store.snapshot.ids == 2)
      gate.open()
      await eventually { store.snapshot.ids == 3 }
      #expect(store.snapshot.effects == 2)
      store.send(.start(.cancel(id: id)))
      await finished(task)
      #expect(store.state == ["start", "step 1", "start"], "cancelling \(id)")
      #expect(store.snapshot.effects == 0)
      #expect(store.snapshot.ids == 0)
    }
  }

  @Test("cancelling a step's own id moves the concatenation on, still under its ids")
  func concatenationStepCancelled() async {
    let store = makeStore()
    let task = store.send(
      .start(
        .concatenate(
          forever("step 1").cancellable(id: RID.b),
          forever("step 2")
        ).cancellable(id: RID.a)))
    #expect(store.snapshot.ids == 2)
    store.send(.start(.cancel(id: RID.b)))
    await eventually { store.snapshot.ids == 1 && store.snapshot.effects == 2 }
    store.send(.start(.cancel(id: RID.a)))
    await finished(task)
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    #expect(store.state == ["start", "start", "start"])
  }

  // MARK: Embedded children

  struct Parent: Equatable {
    var child: Child?
    var log: [String] = []
  }
  struct Child: Equatable { var count = 0 }
  enum ParentAction: Sendable {
    case child(ChildAction)
    case removeChild
  }
  enum ChildAction: Sendable { case start, startInner, stop, tick }

  static func childReducer(_ state: inout Child, _ action: ChildAction) -> Effect<ChildAction> {
    switch action {
    case .start:
      return .run { send in
        await untilCancelled()
        await send(.tick)
      }.cancellable(id: RID.a).cancellable(id: RID.a)
    case .startInner:
      return .merge(
        .run { _ in await untilCancelled() }.cancellable(id: RID.b),
        .run { _ in await untilCancelled() }
      ).cancellable(id: RID.a, cancelInFlight: true)
    case .stop:
      return .cancel(id: RID.a)
    case .tick:
      state.count += 1
      return .none
    }
  }

  static let parentReducer = Reduce<Parent, ParentAction> { state, action in
    if case .removeChild = action { state.child = nil }
    return .none
  }
  .ifLet(\.child, action: ParentAction.child, child: childReducer)

  @Test("a child's ids, nested and duplicated: cancelled by the child, then by its removal")
  func embeddedChild() async {
    let store = Store(initialState: Parent(child: Child()), Self.parentReducer.reduce)
    let started = store.send(.child(.start))
    #expect(store.snapshot.effects == 1)
    // startInner's cancelInFlight on the child's `a` cancels what .start runs under `a`.
    let inner = store.send(.child(.startInner))
    #expect(started.isCancelled)
    #expect(store.snapshot.effects == 2)
    store.send(.child(.stop))
    #expect(started.isCancelled)
    #expect(inner.isCancelled)
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    let again = store.send(.child(.startInner))
    let twice = store.send(.child(.startInner))
    #expect(again.isCancelled)
    #expect(store.snapshot.effects == 2)
    store.send(.removeChild)
    #expect(twice.isCancelled)
    await finished([started, inner, again, twice])
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
    #expect(store.state.child == nil)
  }

  // MARK: StoreTask.finish() waiters

  @Test("finish() in five tasks: cancel the middle, the last, then the first; add one meanwhile")
  func waitersCancelledInAnyOrder() async {
    let gate = Gate()
    let store = makeStore()
    let task = store.send(.start(.run { _ in await gate.wait() }))
    let finished = Recorder<Int>()
    func waiter(_ index: Int) -> Task<Void, Never> {
      Task { @MainActor in
        // NB: Past the ten seconds of a test's bound: the test yields hundreds of times, each a
        // turn of every test on the main actor, which under a sanitizer takes that long.
        await task.finish(timeout: patience)
        finished.append(index)
      }
    }
    var waiters = (0..<4).map(waiter)
    await eventually { gate.waiterCount == 1 }
    for _ in 0..<100 { await Task.yield() }

    waiters[2].cancel()
    await eventually { finished.values == [2] }
    waiters[3].cancel()
    await eventually { finished.values == [2, 3] }
    waiters.append(waiter(4))
    for _ in 0..<100 { await Task.yield() }
    waiters[0].cancel()
    await eventually { finished.values == [2, 3, 0] }
    waiters.append(waiter(5))
    for _ in 0..<100 { await Task.yield() }
    #expect(finished.values == [2, 3, 0])

    gate.open()
    await eventually { finished.values.count == 6 }
    #expect(Set(finished.values) == [0, 1, 2, 3, 4, 5])
    // A waiter cancelled after it returned, and finish() once the count is zero.
    for waiter in waiters { waiter.cancel() }
    for waiter in waiters { await ended(waiter) }
    await ended(Task { await task.finish() })
    let late = waiter(6)
    await ended(late)
    late.cancel()
    for _ in 0..<100 { await Task.yield() }
    #expect(finished.values.count == 7)
    #expect(store.snapshot.effects == 0)
  }

  // MARK: Ids of client types through the inlinable path

  @Test("ids of distinct types with equal hashes and values do not cancel each other")
  func idTypes() async {
    struct One: Hashable { func hash(into hasher: inout Hasher) { hasher.combine(1) } }
    struct Two: Hashable { func hash(into hasher: inout Hasher) { hasher.combine(1) } }
    let store = makeStore()
    let one = store.send(.start(forever("1").cancellable(id: One())))
    let two = store.send(.start(forever("2").cancellable(id: Two())))
    let int = store.send(.start(forever("3").cancellable(id: 1)))
    let any = store.send(.start(forever("4").cancellable(id: AnyHashable(1))))
    store.send(.start(.cancel(id: Two())))
    #expect(!one.isCancelled && two.isCancelled)
    store.send(.start(.cancel(id: 1)))
    #expect(int.isCancelled && !any.isCancelled)
    store.send(.start(.cancel(id: AnyHashable(1))))
    store.send(.start(.cancel(id: One())))
    for task in [one, two, int, any] {
      #expect(task.isCancelled)
      await finished(task)
    }
    #expect(store.snapshot.effects == 0)
    #expect(store.snapshot.ids == 0)
  }
}
