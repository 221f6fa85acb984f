import Foundation
import Observation
import Testing

@testable import MiniRedux

// MARK: - Scoped stores of a child that goes and comes back

private enum Adv2Sheet {
  struct Sheet: Equatable { var text = "" }
  struct State: Equatable { var sheet: Sheet? }
  enum SheetAction: Equatable, Sendable { case append(String) }
  enum Action: Equatable, Sendable { case sheet(SheetAction), present(String), close }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .present(let text): state.sheet = Sheet(text: text)
    case .close: state.sheet = nil
    case .sheet: break
    }
    return .none
  }
  .ifLet(\.sheet, action: Action.sheet) { (sheet: inout Sheet, action: SheetAction) in
    switch action {
    case .append(let s): sheet.text += s
    }
    return .none
  }
}

private enum Adv2Stack {
  struct Screen: Equatable { var count = 0 }
  struct State: Equatable { var path = StackState<Screen>() }
  enum ScreenAction: Equatable, Sendable { case tap, start, tick, close }
  enum Action: Equatable, Sendable {
    case path(Int, ScreenAction), push, popAll, setPath, remove(Int), popFrom(Int), popTo(Int)
  }

  static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .push: state.path.append(Screen())
      case .popAll: state.path.removeAll()
      case .setPath: state.path = [Screen()]
      case .remove(let id): state.path[id: id] = nil
      case .popFrom(let id): state.path.pop(from: id)
      case .popTo(let id): state.path.pop(to: id)
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { (screen: inout Screen, action: ScreenAction) in
      switch action {
      case .tap:
        screen.count += 1
        return .none
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        screen.count += 1
        return .none
      case .close:
        return .run { send in await send.dismiss() }
      }
    }
  }
}

@MainActor
@Suite("Adversarial 2: scoped stores and Observation")
struct AdversarialTests2Scopes {
  @Test("an optional scope of a sheet follows a new sheet presented after the old one closed")
  func optionalScopeAfterRepresent() async {
    let store = Store(initialState: Adv2Sheet.State(), Adv2Sheet.reducer)
    store.send(.present("A"))
    let sheet = store.scope(state: \.sheet, action: Adv2Sheet.Action.sheet)!
    #expect(sheet.text == "A")
    store.send(.close)
    #expect(sheet.text == "A")
    store.send(.present("B"))
    // Guarantees: such a store "follows whatever child is there": it reads the new sheet and
    // sends to it, as TCA's optional scope does.
    #expect(sheet.text == "B")
    sheet.send(.append("!"))
    #expect(store.state.sheet?.text == "B!")
  }

  @Test("a popped screen's scoped store: a send is dropped with a MiniRedux message")
  func poppedScreenScope() async {
    let clock = TestClock()
    let store = Store(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    store.send(.push)
    let id = store.state.path.ids[0]
    let screen = store.scope(
      state: { $0.path[id: id] }, action: { Adv2Stack.Action.path(id, $0) })!
    screen.send(.tap)
    #expect(screen.count == 1)
    store.send(.popAll)
    store.send(.push)
    #expect(screen.count == 1)
    let messages = Locked<[String]>([])
    withKnownIssue {
      screen.send(.tap)
    } matching: { issue in
      messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    #expect(messages.current.contains { $0.contains("MiniRedux: dropped") })
    #expect(store.state.path.map(\.count) == [0])
  }

  @Test("withObservationTracking on an Equatable scoped store's state hears only its changes")
  func equatableScopeObservation() async {
    let store = Store(initialState: Adv2Sheet.State(), Adv2Sheet.reducer)
    store.send(.present("A"))
    let sheet = store.scope(state: \.sheet, action: Adv2Sheet.Action.sheet)!
    let fired = Locked(0)
    withObservationTracking {
      _ = sheet.state
    } onChange: {
      fired.withLock { $0 += 1 }
    }
    store.send(.present("A"))  // Same sheet state: no change.
    #expect(fired.current == 0)
    sheet.send(.append("x"))
    #expect(fired.current == 1)
    fired.withLock { $0 = 0 }
    withObservationTracking {
      _ = sheet.text
    } onChange: {
      fired.withLock { $0 += 1 }
    }
    store.send(.present("Ax"))
    #expect(fired.current == 0)
    store.send(.close)
    #expect(fired.current == 0)  // It keeps its last state.
  }

  @Test("subscribe(to:) on a scoped store calls once now, then on changes only")
  func subscribeToOnScope() async {
    let store = Store(initialState: Adv2Sheet.State(), Adv2Sheet.reducer)
    store.send(.present("A"))
    let sheet = store.scope(state: \.sheet, action: Adv2Sheet.Action.sheet)!
    var seen: [String] = []
    let sub = sheet.subscribe(to: \.text) { seen.append($0) }
    store.send(.present("A"))
    sheet.send(.append("b"))
    store.send(.close)
    store.send(.present("Q"))
    sub.cancel()
    store.send(.present("R"))
    #expect(seen == ["A", "Ab", "Q"])  // It follows whatever child is there (Guarantees).
  }

  @Test("states of a scoped store yields now, then each change")
  func scopedStates() async {
    let store = Store(initialState: Adv2Sheet.State(), Adv2Sheet.reducer)
    store.send(.present("A"))
    let sheet = store.scope(state: \.sheet, action: Adv2Sheet.Action.sheet)!
    var iterator = sheet.states.makeAsyncIterator()
    #expect(await iterator.next()?.text == "A")
    sheet.send(.append("b"))
    #expect(await iterator.next()?.text == "Ab")
  }
}

@MainActor
@Suite("Adversarial 2: StackState navigation")
struct AdversarialTests2Stack {
  @Test("a screen's effect ends when popped by [id:] = nil, pop(from:), pop(to:), a new stack")
  func screenEffectEndsOnPop() async throws {
    for way in 0..<4 {
      let clock = TestClock()
      let store = Store(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
      store.send(.push)
      store.send(.push)
      let (bottom, top) = (store.state.path.ids[0], store.state.path.ids[1])
      let task = store.send(.path(top, .start))
      await clock.advance(by: .seconds(1))
      #expect(store.state.path[id: top]?.count == 1)
      switch way {
      case 0: store.send(.remove(top))
      case 1: store.send(.popFrom(top))
      case 2: store.send(.popTo(bottom))
      default: store.send(.setPath)
      }
      await eventually { task.isCancelled }
      #expect(!store.state.path.ids.contains(top))
      #expect(store.snapshot.effects == 0)
    }
  }

  @Test("ids after assigning a new stack are new; [id:] = nil on an absent id changes nothing")
  func idsAfterNewStack() {
    var path: StackState<Int> = [1, 2]
    let old = path.ids
    path = [3]
    #expect(!old.contains(path.ids[0]))
    path[id: old[0]] = nil
    path[id: old[0]] = 7
    #expect(Array(path) == [3])
    path.append(4)
    path.reverse()
    #expect(Array(path) == [4, 3])
    path[id: path.ids[1]] = nil
    #expect(Array(path) == [4])
  }

  @Test("send.dismiss() from a screen's .run pops it; a TestStore receives the dismissal")
  func stackSendDismiss() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    try await store.send(.path(0, .close))
    try await store.receiveDismiss { $0.path.removeAll() }
    try await store.finish()
  }
}

// MARK: - TestStore semantics

private enum Adv2Load {
  struct State: Equatable {
    var count = 0
    var loaded: [Int] = []
  }
  enum Action: Equatable, Sendable { case start, load, loaded(Int), tap, forever }

  static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .start:
        state.count += 1
        return .none
      case .load:
        return .run { send in
          await send(.loaded(1))
          try await clock.sleep(for: .seconds(1))
          await send(.loaded(2))
        }
      case .loaded(let n):
        state.loaded.append(n)
        return .none
      case .tap:
        state.count += 1
        return .none
      case .forever:
        return .run { _ in try await clock.sleep(for: .seconds(100)) }
      }
    }
  }
}

@MainActor
@Suite("Adversarial 2: TestStore semantics")
struct AdversarialTests2TestStore {
  @Test("initialAction is reduced without an assertion; its effect's actions must be received")
  func initialActionReceived() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: Adv2Load.State(), initialAction: .load, Adv2Load.reducer(clock))
    try await store.receive(.loaded(1)) { $0.loaded = [1] }
    await clock.advance(by: .seconds(1))
    try await store.receive(.loaded(2)) { $0.loaded = [1, 2] }
    try await store.finish()
  }

  @Test("exhaustivity off: a send closure asserts part of the state; skipped actions are fine")
  func offPartial() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    store.exhaustivity = .off
    try await store.send(.load)
    await clock.advance(by: .seconds(1))
    try await store.send(.tap) { $0.count = 1 }
    #expect(store.state.loaded == [1, 2])
    try await store.finish()
  }

  @Test("skipReceivedActions forgets what came; finish then passes")
  func skipThenFinish() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    let task = try await store.send(.load)
    await clock.advance(by: .seconds(1))
    await task.finish()
    store.skipReceivedActions()
    #expect(store.state.loaded == [1, 2])
    try await store.send(.tap) { $0.count = 1 }
    try await store.finish()
  }

  @Test("finish() reports an effect still running, at finish's line, naming its send")
  func finishReportsRunning() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    try await store.send(.forever)
    let line = #line + 2
    try await withKnownIssue {
      try await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue).joined().contains(".forever")
    }
  }

  @Test("a receive that times out fails at its line, and the test goes on")
  func receiveTimesOut() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    try await store.send(.load)
    try await store.receive(.loaded(1)) { $0.loaded = [1] }
    let line = #line + 2
    try await withKnownIssue {
      try await store.receive(.loaded(2), timeout: .milliseconds(50)) { $0.loaded = [1, 2] }
    } matching: { issue in
      issue.sourceLocation?.line == line
    }
    await clock.advance(by: .seconds(1))
    try await store.receive(.loaded(2)) { $0.loaded = [1, 2] }
    try await store.finish()
  }

  @Test("a wrong send closure fails at the send's line with a diff")
  func wrongSendLine() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    let line = #line + 2
    try await withKnownIssue {
      try await store.send(.tap) { $0.count = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return issue.sourceLocation?.line == line && text.contains("count")
    }
    try await store.finish()
  }
}

// MARK: - printChanges

private enum Adv2Print {
  enum Mode: Equatable { case idle, editing(Draft) }
  struct Draft: Equatable {
    var title: String
    var tags: [String]
  }
  struct State: Equatable {
    var mode = Mode.idle
    var count = 0
  }
  enum Inner: Equatable, Sendable { case set(title: String, tags: [String]), clear }
  enum Action: Equatable, Sendable { case inner(Inner), row(id: Int, action: Inner) }
}

@MainActor
@Suite("Adversarial 2: printChanges")
struct AdversarialTests2Print {
  @Test("printChanges prints a nested enum action and a diff of a nested enum state")
  func nestedPrint() {
    let lines = Locked<[String]>([])
    let reducer: Reducer<Adv2Print.State, Adv2Print.Action> = printChanges(
      { state, action in
        switch action {
        case .inner(.set(let title, let tags)), .row(_, .set(let title, let tags)):
          state.mode = .editing(.init(title: title, tags: tags))
        case .inner(.clear), .row(_, .clear): state.mode = .idle
        }
        return .none
      }, to: { text in lines.withLock { $0.append(text) } })
    let store = Store(initialState: Adv2Print.State(), reducer)
    store.send(.inner(.set(title: "A", tags: ["x"])))
    store.send(.row(id: 3, action: .set(title: "B", tags: ["x", "y"])))
    store.send(.inner(.clear))
    store.send(.inner(.clear))
    let out = lines.current
    #expect(out.count == 4)
    #expect(out[0].hasPrefix("received .inner(.set(title: \"A\", tags: [\"x\"]))"))
    #expect(
      out[1].hasPrefix("received .row(id: 3, action: .set(title: \"B\", tags: [\"x\", \"y\"]))"))
    #expect(out[3].hasSuffix("(no change)"))
  }
}

// MARK: - Misuse

private enum Adv2Misuse {
  struct Row: Equatable, Identifiable {
    var id: Int
    var count = 0
  }
  struct State: Equatable {
    var rows: [Row] = []
    var log: [String] = []
  }
  enum RowAction: Equatable, Sendable { case tap }
  enum Action: Equatable, Sendable {
    case row(Int, RowAction), add(Int), remove(Int), rootDismiss, cancelUnused, again(Int)
  }
}

@MainActor
@Suite("Adversarial 2: misuse")
struct AdversarialTests2Misuse {
  fileprivate static func reducer(_ captured: Box<Store<Adv2Misuse.State, Adv2Misuse.Action>>)
    -> Reduce<
      Adv2Misuse.State, Adv2Misuse.Action
    >
  {
    Reduce<Adv2Misuse.State, Adv2Misuse.Action> { state, action in
      switch action {
      case .add(let id): state.rows.append(.init(id: id))
      case .remove(let id): state.rows.removeAll { $0.id == id }
      case .rootDismiss: return .dismiss
      case .cancelUnused: return .cancel(id: "never")
      case .again(let n):
        state.log.append("again \(n)")
        if n > 0 { captured.value?.send(.again(n - 1)) }
        state.log.append("end \(n)")
      case .row: break
      }
      return .none
    }
    .forEach(\.rows, action: Adv2Misuse.Action.row) {
      (row: inout Adv2Misuse.Row, _: Adv2Misuse.RowAction) in
      row.count += 1
      return .none
    }
  }

  @Test("a send to a removed row's scoped store is dropped with a MiniRedux message")
  func removedRowScope() {
    let box = Box<Store<Adv2Misuse.State, Adv2Misuse.Action>>()
    let store = Store(initialState: Adv2Misuse.State(), Self.reducer(box))
    store.send(.add(1))
    let row = store.scope(
      state: { $0.rows.first { $0.id == 1 } }, action: { Adv2Misuse.Action.row(1, $0) })!
    store.send(.remove(1))
    withKnownIssue {
      row.send(.tap)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("MiniRedux: dropped .row(1, .tap)")
    }
    #expect(row.count == 0)
  }

  @Test(".dismiss from a root reducer is reported; .cancel of an unused id is silent")
  func rootDismiss() {
    let box = Box<Store<Adv2Misuse.State, Adv2Misuse.Action>>()
    let store = Store(initialState: Adv2Misuse.State(), Self.reducer(box))
    store.send(.cancelUnused)
    withKnownIssue {
      store.send(.rootDismiss)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("MiniRedux: .dismiss")
    }
  }

  @Test("a send from inside the reducer is queued behind the action, never nested")
  func reentrantSend() {
    let box = Box<Store<Adv2Misuse.State, Adv2Misuse.Action>>()
    let store = Store(initialState: Adv2Misuse.State(), Self.reducer(box))
    box.value = store
    defer { box.value = nil }  // NB: The reducer holds the box: a cycle LeakSanitizer reports.
    let task = store.send(.again(2))
    #expect(store.state.log == ["again 2", "end 2", "again 1", "end 1", "again 0", "end 0"])
    #expect(task.count == 0)
  }
}

// MARK: - More probes

private enum Adv2Nest {
  struct Inner: Equatable { var n = 0 }
  struct Sheet: Equatable { var inner: Inner? = Inner() }
  struct State: Equatable {
    var sheet: Sheet?
    var other = 0
  }
  enum InnerAction: Equatable, Sendable { case tap, close }
  enum SheetAction: Equatable, Sendable { case inner(InnerAction) }
  enum Action: Equatable, Sendable { case sheet(SheetAction), present, close, other }

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .present: state.sheet = Sheet()
    case .close: state.sheet = nil
    case .other: state.other += 1
    case .sheet: break
    }
    return .none
  }
  .ifLet(
    \.sheet, action: Action.sheet,
    child: Reduce<Sheet, SheetAction> { _, _ in .none }
      .ifLet(\.inner, action: SheetAction.inner) { (inner: inout Inner, action: InnerAction) in
        switch action {
        case .tap:
          inner.n += 1
          return .none
        case .close: return .dismiss
        }
      }.reduce)
}

@MainActor
@Suite("Adversarial 2: more")
struct AdversarialTests2More {
  @Test("a non-Equatable scope's observers hear every parent send; its property only on change")
  func nonEquatableScope() {
    struct Wrapper { var n: Int }
    let store = Store<Int, Bool>(initialState: 0) { state, bump in
      if bump { state += 1 }
      return .none
    }
    let scoped: Store<Wrapper, Bool> = store.scope(state: { Wrapper(n: $0) }, action: { $0 })
    let (all, prop) = (Locked(0), Locked(0))
    withObservationTracking {
      _ = scoped.state
    } onChange: {
      all.withLock { $0 += 1 }
    }
    withObservationTracking {
      _ = scoped.n
    } onChange: {
      prop.withLock { $0 += 1 }
    }
    store.send(false)
    #expect(all.current == 1)
    #expect(prop.current == 0)
    withObservationTracking {
      _ = scoped.n
    } onChange: {
      prop.withLock { $0 += 1 }
    }
    scoped.send(true)
    #expect(prop.current == 2)  // Both trackings of `n` hear of it.
  }

  @Test("TestStore: screens of the initial state count from 0; a push in a closure gets the next")
  func testStoreStackIDs() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: Adv2Stack.State(path: [Adv2Stack.Screen()]), Adv2Stack.reducer(clock))
    #expect(store.state.path.ids == [0])
    try await store.send(.path(0, .tap)) { $0.path[id: 0]?.count = 1 }
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    #expect(store.state.path.ids == [0, 1])
    try await store.send(.setPath) { $0.path = [Adv2Stack.Screen()] }
    #expect(store.state.path.ids == [2])
    try await store.send(.path(2, .start))
    try await store.send(.remove(2)) { $0.path = [] }
    try await store.finish()
  }

  @Test("a scope of a scope of an optional child: gone, it drops sends with the whole path")
  func nestedOptionalScope() {
    let store = Store(initialState: Adv2Nest.State(), Adv2Nest.reducer)
    store.send(.present)
    let sheet = store.scope(state: \.sheet, action: Adv2Nest.Action.sheet)!
    let inner = sheet.scope(state: \.inner, action: Adv2Nest.SheetAction.inner)!
    #expect(inner.n == 0)
    store.send(.close)
    withKnownIssue {
      inner.send(.tap)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("dropped .sheet(.inner(.tap))")
    }
  }

  @Test("send.dismiss() after the parent already popped the screen does nothing")
  func dismissAfterPop() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    try await store.send(.path(0, .start))
    await clock.advance(by: .seconds(1))
    try await store.receive(.path(0, .tick)) { $0.path[id: 0]?.count = 1 }
    try await store.send(.popAll) { $0.path = [] }
    await clock.advance(by: .seconds(5))
    try await store.finish()
  }
}

@MainActor
@Suite("Adversarial 2: last")
struct AdversarialTests2Last {
  @Test("a plain store's listener hears of a dismissal from send.dismiss() in a .run")
  func listenerHearsRunDismiss() async {
    let clock = TestClock()
    let store = Store(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    store.send(.push)
    let seen = Locked<[Int]>([])
    store.subscribe { state in seen.withLock { $0.append(state.path.count) } }
    let id = store.state.path.ids[0]
    let observed = Locked(0)
    withObservationTracking {
      _ = store.path
    } onChange: {
      observed.withLock { $0 += 1 }
    }
    await store.send(.path(id, .close)).finish()
    #expect(store.state.path.isEmpty)
    #expect(seen.current == [1, 1, 0])  // The send, then the dismissal in a step of its own.
    #expect(observed.current == 1)
  }

  @Test("exhaustive: a closure for an action that changed nothing fails")
  func closureForNoChange() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    try await withKnownIssue {
      try await store.send(.loaded(5)) { $0.loaded = [5] }
      try await store.send(.start) { _ in }
    } matching: { _ in
      true
    }
    try await store.finish()
  }

  @Test("finish() lists an action received and not asserted")
  func finishListsUnreceived() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    try await store.send(.load)
    await clock.advance(by: .seconds(1))
    try await withKnownIssue {
      try await store.finish()
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains(".loaded(1)") && text.contains(".loaded(2)")
    }
  }

  @Test("a nested child closing itself removes only itself; the sheet stays")
  func innerDismiss() {
    let store = Store(initialState: Adv2Nest.State(), Adv2Nest.reducer)
    store.send(.present)
    store.send(.sheet(.inner(.tap)))
    #expect(store.state.sheet?.inner?.n == 1)
    store.send(.sheet(.inner(.close)))
    #expect(store.state.sheet != nil)
    #expect(store.state.sheet?.inner == nil)
  }
}

private enum Adv2Reentry {
  struct Child: Equatable { var log: [String] = [] }
  struct State: Equatable {
    var child = Child()
    var count = 0
  }
  enum ChildAction: Equatable, Sendable { case first, second }
  enum Action: Equatable, Sendable { case child(ChildAction), subscribe, bump, runDismiss }
}

@MainActor
@Suite("Adversarial 2: re-entry")
struct AdversarialTests2Reentry {
  @Test("a child reducer sending to its own scoped store queues the action")
  func scopedReentry() {
    let box = Box<Store<Adv2Reentry.Child, Adv2Reentry.ChildAction>>()
    let seen = Locked<[Int]>([])
    let rootBox = Box<Store<Adv2Reentry.State, Adv2Reentry.Action>>()
    let reducer = Reduce<Adv2Reentry.State, Adv2Reentry.Action> { state, action in
      switch action {
      case .subscribe:
        rootBox.value?.subscribe(to: \.count) { count in seen.withLock { $0.append(count) } }
        state.count += 1
      case .bump: state.count += 1
      case .runDismiss: return .run { send in await send.dismiss() }
      case .child: break
      }
      return .none
    }
    .scope(\.child, action: Adv2Reentry.Action.child) {
      (child: inout Adv2Reentry.Child, action: Adv2Reentry.ChildAction) in
      child.log.append("\(action) start")
      if action == .first { box.value?.send(.second) }
      child.log.append("\(action) end")
      return .none
    }
    let store = Store(initialState: Adv2Reentry.State(), reducer)
    rootBox.value = store
    box.value = store.scope(state: \.child, action: Adv2Reentry.Action.child)
    defer { (box.value, rootBox.value) = (nil, nil) }  // NB: The reducer holds them: cycles.
    box.value?.send(.first)
    #expect(store.state.child.log == ["first start", "first end", "second start", "second end"])
    store.send(.subscribe)
    #expect(seen.current == [1])
    store.send(.bump)
    #expect(seen.current == [1, 2])
  }
}

@MainActor
@Suite("Adversarial 2: root dismiss from a run")
struct AdversarialTests2RootRunDismiss {
  @Test("send.dismiss() from a root store's .run is reported and removes nothing")
  func rootRunDismiss() async {
    let store = Store<Int, Bool>(initialState: 0) { state, action in
      state += 1
      return action ? .run { send in await send.dismiss() } : .none
    }
    await withKnownIssue {
      await store.send(true).finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("MiniRedux: ")
    }
    #expect(store.state == 1)
    store.send(false)
    #expect(store.state == 2)
  }
}

@MainActor
@Suite("Adversarial 2: dismissals in a TestStore")
struct AdversarialTests2TestDismiss {
  @Test("exhaustivity off: an unreceived dismissal does not fail finish; state shows it")
  func offDismiss() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    store.exhaustivity = .off
    try await store.send(.push)
    try await store.send(.path(0, .close))
    try await store.finish()
    #expect(store.state.path.isEmpty)
  }

  @Test("exhaustive: an unreceived dismissal fails finish, naming it")
  func onDismissUnreceived() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    try await store.send(.path(0, .close))
    try await withKnownIssue {
      try await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("dismiss")
    }
  }

  @Test("exhaustivity off: receiveDismiss skips a screen's actions before it")
  func offReceiveDismissSkips() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    store.exhaustivity = .off
    try await store.send(.push)
    try await store.send(.path(0, .start))
    await clock.advance(by: .seconds(2))
    try await store.send(.path(0, .close))
    try await store.receiveDismiss { $0.path = [] }
    try await store.finish()
  }
}

private enum Adv2Deep {
  struct Address: Equatable {
    var street = "A long street name that goes on"
    var city = "Somewhere quite far away"
    var zip: Int? = nil
  }
  struct User: Equatable {
    var name = "Blob"
    var address = Address()
    var tags: Set<String> = ["b", "a"]
    var scores: [String: Int] = ["x": 1, "y": 2]
  }
  enum Status: Equatable { case none, some(User) }
  struct State: Equatable { var status = Status.some(User()) }
}

@MainActor
@Suite("Adversarial 2: printChanges deep")
struct AdversarialTests2PrintDeep {
  @Test("printChanges of a deep change shows only the changed line, in context")
  func deepDiff() {
    let lines = Locked<[String]>([])
    let reducer: Reducer<Adv2Deep.State, Int> = printChanges(
      { state, n in
        if case .some(var user) = state.status {
          user.address.zip = n
          user.scores["y"] = n
          state.status = .some(user)
        }
        return .none
      }, to: { text in lines.withLock { $0.append(text) } })
    let store = Store(initialState: Adv2Deep.State(), reducer)
    store.send(7)
    let out = lines.current.joined().split(separator: "\n")
    #expect(out.contains { $0.hasPrefix("- ") && $0.hasSuffix("zip: nil") })
    #expect(out.contains { $0.hasPrefix("+ ") && $0.hasSuffix("zip: 7") })
    #expect(out.filter { $0.hasPrefix("- ") || $0.hasPrefix("+ ") }.count == 4)
  }
}

@MainActor
@Suite("Adversarial 2: waits that end")
struct AdversarialTests2Waits {
  @Test("receive with no effect running fails at once, not after its timeout")
  func receiveNothingRunning() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    // NB: The message of the path that fails at once, before any wait; no clock is timed here.
    try await withKnownIssue {
      try await store.receive(.loaded(1), timeout: .seconds(30))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasSuffix("received nothing and no effect is running")
    }
  }

  @Test("exhaustivity off: a receive skipping 30 other actions fails naming 20 at most")
  func offReceiveEndsUnderStream() async throws {
    let clock = TestClock()
    let store = TestStore<Int, Bool>(initialState: 0) { state, action in
      state += 1
      return action
        ? .run { send in
          for _ in 0..<30 { await send(false) }
          try await clock.sleep(for: .seconds(100))
        } : .none
    }
    store.exhaustivity = .off
    let task = try await store.send(true)
    let messages = Locked<[String]>([])
    try await withKnownIssue {
      try await store.receive({ _ in false }, timeout: .milliseconds(200))
    } matching: { issue in
      messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    // NB: A stream of actions skipped makes no message of unbounded length: 20 are named at most.
    let message = messages.current.joined()
    #expect(message.hasPrefix("receive: expected an action that matches, but received only false"))
    #expect(message.components(separatedBy: "false").count - 1 <= 20, "\(message)")
    task.cancel()
    try await store.finish()
  }
}

private enum Adv2Ids {
  struct Screen: Equatable { var ticks = 0 }
  struct State: Equatable {
    var path = StackState<Screen>()
    var ticks = 0
  }
  enum ScreenAction: Equatable, Sendable { case start, tick }
  enum Action: Equatable, Sendable { case path(Int, ScreenAction), push, start, tick, cancel }
  struct TimerID: Hashable, Sendable {}

  static func reducer(_ clock: TestClock) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .push: state.path.append(Screen())
      case .start:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }.cancellable(id: TimerID())
      case .tick: state.ticks += 1
      case .cancel: return .cancel(id: TimerID())
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) { (screen: inout Screen, action: ScreenAction) in
      switch action {
      case .start:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }.cancellable(id: TimerID())
      case .tick:
        screen.ticks += 1
        return .none
      }
    }
  }
}

@MainActor
@Suite("Adversarial 2: ids, drops and streams")
struct AdversarialTests2IDs {
  @Test("a parent's .cancel(id:) reaches each screen's effect under that id, and its own")
  func parentCancelReachesScreens() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Ids.State(), Adv2Ids.reducer(clock))
    try await store.send(.push) { $0.path.append(Adv2Ids.Screen()) }
    try await store.send(.push) { $0.path.append(Adv2Ids.Screen()) }
    try await store.send(.path(0, .start))
    try await store.send(.path(1, .start))
    try await store.send(.start)
    try await store.send(.cancel)
    await clock.advance(by: .seconds(2))
    try await store.finish()
  }

  @Test("TestStore: an action for a popped screen fails the step that carried it")
  func testStoreDropFailsStep() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Stack.State(), Adv2Stack.reducer(clock))
    try await store.send(.push) { $0.path.append(Adv2Stack.Screen()) }
    try await store.send(.popAll) { $0.path = [] }
    let line = #line + 2
    try await withKnownIssue {
      try await store.send(.path(0, .tap))
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue).joined().contains("dropped .path(0, .tap)")
    }
    try await store.finish()
  }

  @Test("a dropped subscribe(to:) keeps listening; a slow states consumer gets the newest")
  func droppedSubscriptionAndSlowStates() async {
    let store = Store<Int, Int>(initialState: 0) { state, n in
      state = n
      return .none
    }
    let seen = Locked<[Int]>([])
    _ = store.subscribe(to: { $0 / 10 }) { tens in seen.withLock { $0.append(tens) } }
    var states = store.states.makeAsyncIterator()
    #expect(await states.next() == 0)
    for n in [5, 12, 15, 31] { store.send(n) }
    #expect(await states.next() == 31)
    #expect(seen.current == [0, 1, 3])
  }
}

@MainActor
@Suite("Adversarial 2: assertion closures")
struct AdversarialTests2Closures {
  @Test("exhaustivity off: a send closure that sets a wrong value fails")
  func offWrongValue() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Load.State(), Adv2Load.reducer(clock))
    store.exhaustivity = .off
    let line = #line + 2
    try await withKnownIssue {
      try await store.send(.tap) { $0.count = 5 }
    } matching: { issue in
      issue.sourceLocation?.line == line
    }
    try await store.send(.tap) { $0.count = 2 }
    try await store.finish()
  }
}

private enum Adv2Later {
  struct State: Equatable { var path = StackState<Int>() }
  enum Action: Equatable, Sendable { case pushLater, push, path(Int, Never) }

  static func reducer(_ clock: TestClock) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .pushLater:
        state.path.append(1)
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.push)
        }
      case .push:
        state.path.append(2)
        return .none
      case .path: return .none
      }
    }
  }
}

@MainActor
@Suite("Adversarial 2: stack ids in received steps")
struct AdversarialTests2LaterIDs {
  @Test("a push in a received action gets, in its closure, the id the step gave it")
  func receivedPushIDs() async throws {
    let clock = TestClock()
    let store = TestStore(initialState: Adv2Later.State(), Adv2Later.reducer(clock))
    try await store.send(.pushLater) { $0.path.append(1) }
    try await store.send(.push) { $0.path.append(2) }
    await clock.advance(by: .seconds(1))
    try await store.receive(.push) { $0.path.append(2) }
    #expect(store.state.path.ids == [0, 1, 2])
    try await store.finish()
  }
}

private enum Adv2Dest {
  struct Edit: Equatable { var text = "" }
  struct Alert: Equatable {}
  enum DestState: Equatable {
    case edit(Edit)
    case alert(Alert)
  }
  enum EditAction: Equatable, Sendable { case type }
  enum AlertAction: Equatable, Sendable { case ok }
  enum DestAction: Equatable, Sendable { case edit(EditAction), alert(AlertAction) }
  struct State: Equatable { var destination: DestState? }
  enum Action: Equatable, Sendable { case destination(DestAction), showEdit(String), showAlert }

  static let edit: Reducer<Edit, EditAction> = { edit, _ in
    edit.text += "!"
    return .none
  }
  static let destination = Reduce<DestState, DestAction> { _, _ in .none }
    .scope(DestState.edit, action: DestAction.edit, child: edit)
    .scope(DestState.alert, action: DestAction.alert)

  static let reducer = Reduce<State, Action> { state, action in
    switch action {
    case .showEdit(let text): state.destination = .edit(Edit(text: text))
    case .showAlert: state.destination = .alert(Alert())
    case .destination: break
    }
    return .none
  }
  .ifLet(\.destination, action: Action.destination, child: destination.reduce)
}

@MainActor
@Suite("Adversarial 2: a destination's scope after another destination")
struct AdversarialTests2DestScope {
  @Test("the scope of an edit screen, once an alert replaced it, does not reach a new edit screen")
  func editScopeAfterAlert() {
    let store = Store(initialState: Adv2Dest.State(), Adv2Dest.reducer)
    store.send(.showEdit("A"))
    let edit = store.scope(
      state: { $0.destination[case: Adv2Dest.DestState.edit] },
      action: { Adv2Dest.Action.destination(.edit($0)) })!
    store.send(.showAlert)
    withKnownIssue { edit.send(Adv2Dest.EditAction.type) }  // Dropped, as documented.
    #expect(edit.text == "A")
    store.send(.showEdit("B"))
    // Guarantees: it follows whatever child is there, here the new edit screen.
    #expect(edit.text == "B")
  }
}
