import Testing

@testable import MiniRedux

// A navigation stack whose screens get their ids from the stack: push, pop, pop several, pop to
// a screen, and the screens' effects ending with them.

/// A screen with a timer that ticks until cancelled, and a button that dismisses it.
private enum StackScreen {
  struct State: Equatable {
    var title = ""
    var ticks = 0
  }
  enum Action: Equatable { case start, tick, close }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        await send(.tick)
        await untilCancelled()
      }
    case .tick:
      state.ticks += 1
      return .none
    case .close:
      return .dismiss
    }
  }
}

private enum StackApp {
  struct State: Equatable { var path: StackState<StackScreen.State> = [] }
  enum Action: Equatable {
    case push(String), popFrom(Int), popTo(Int), path(id: Int, StackScreen.Action)
  }

  static var reducer: Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .push(let title): state.path.append(StackScreen.State(title: title))
      case .popFrom(let id): state.path.pop(from: id)
      case .popTo(let id): state.path.pop(to: id)
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: StackScreen.reduce)
  }
}

/// A stack of two kinds of screens: an enum, each case a feature, with a sheet on one of them.
private enum PathApp {
  enum Path {
    enum State: Equatable { case list(StackScreen.State), detail(Detail.State) }
    enum Action: Equatable { case list(StackScreen.Action), detail(Detail.Action) }
    static var reducer: Reduce<State, Action> {
      Reduce { _, _ in .none }
        .scope(State.list, action: Action.list, child: StackScreen.reduce)
        .scope(State.detail, action: Action.detail, child: Detail.reducer)
    }
  }

  /// A screen with a sheet whose timer runs until the screen is popped.
  enum Detail {
    struct State: Equatable { var sheet: StackScreen.State? }
    enum Action: Equatable { case present, sheet(StackScreen.Action) }
    static var reducer: Reduce<State, Action> {
      Reduce { state, action in
        if action == .present { state.sheet = StackScreen.State(title: "sheet") }
        return .none
      }
      .ifLet(\.sheet, action: Action.sheet, child: StackScreen.reduce)
    }
  }

  struct State: Equatable { var path: StackState<Path.State> = [] }
  enum Action: Equatable { case push(Path.State), popTo(Int), path(id: Int, Path.Action) }
  static var reducer: Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .push(let screen): state.path.append(screen)
      case .popTo(let id): state.path.pop(to: id)
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: Action.path, child: Path.reducer)
  }
}

@MainActor
@Suite("StackState: screens with ids the stack gives", .throwingFailures)
struct StackTests {
  @Test("each pushed screen gets the next id, never one given before, and pops go by id")
  func idsAndPops() {
    var path: StackState<String> = ["root"]
    path.append("a")
    path.append(contentsOf: ["b", "c"])
    let first = path.ids[0]
    #expect(path.ids == Array(first...first + 3) && Array(path) == ["root", "a", "b", "c"])

    path.pop(from: first + 2)
    #expect(path.ids == [first, first + 1] && Array(path) == ["root", "a"])
    path.append("d")
    let d = path.ids[2]
    #expect(d > first + 3, "a popped id is never given again")

    path.pop(to: first)
    #expect(path.ids == [first] && Array(path) == ["root"])
    path.pop(from: d + 99)
    path.pop(to: d + 99)
    #expect(path.ids == [first])

    path[0] = "home"
    #expect(path.first == "home" && path.ids == [first])
    var copy = path
    #expect(copy == path && path != ["home"], "equal stacks hold equal screens under equal ids")
    copy[0] = "other"
    #expect(copy != path)
  }

  @Test("a stack built before its test store shares no id with the screens the test store pushes")
  func stackBuiltBeforeTheTestStore() async throws {
    var state = StackApp.State()
    state.path.append(StackScreen.State(title: "built"))
    let built = state.path.ids[0]
    #expect(built >= 1 << 30, "the process's ids start at 2^30")
    let store = TestStore(initialState: state, StackApp.reducer)
    try await store.send(.push("pushed")) { $0.path.append(StackScreen.State(title: "pushed")) }
    #expect(store.state.path.ids == [built, 0], "the test store's pushes count from 0")
    // NB: The action reaches the pushed screen, not the one built before with the same id.
    try await store.send(.path(id: 0, .close)) { $0.path.pop(from: 0) }
    #expect(store.state.path.map(\.title) == ["built"])
  }

  @Test("a screen's action reaches it by its id; popping several ends their effects in that send")
  func screensAndTheirEffects() async throws {
    let store = TestStore(initialState: StackApp.State(), StackApp.reducer)
    try await store.send(.push("a")) { $0.path.append(StackScreen.State(title: "a")) }
    try await store.send(.push("b")) { $0.path.append(StackScreen.State(title: "b")) }
    try await store.send(.push("c")) { $0.path.append(StackScreen.State(title: "c")) }
    try await store.send(.path(id: 1, .start))
    try await store.receive(.path(id: 1, .tick)) { $0.path[1].ticks = 1 }
    try await store.send(.path(id: 2, .start))
    try await store.receive(.path(id: 2, .tick)) { $0.path[2].ticks = 1 }

    // When: the app pops to the first screen.
    try await store.send(.popTo(0)) { $0.path.pop(to: 0) }

    // Then: both timers ended in that send (`finish` fails on one still running).
    #expect(store.state.path.ids == [0])
    try await store.finish()
  }

  @Test("an action for a popped screen is dropped and reported")
  func poppedScreenIsReported() async throws {
    let store = TestStore(initialState: StackApp.State(), StackApp.reducer)
    try await store.send(.push("a")) { $0.path.append(StackScreen.State(title: "a")) }
    try await store.send(.popFrom(0)) { $0.path.pop(from: 0) }
    let step = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.path(id: 0, .tick))
    }
    #expect(step?.message.contains("has no element with id 0") == true)
  }

  @Test("a screen that dismisses itself is popped, and its effects end")
  func screenDismissesItself() async throws {
    let store = TestStore(initialState: StackApp.State(), StackApp.reducer)
    try await store.send(.push("a")) { $0.path.append(StackScreen.State(title: "a")) }
    try await store.send(.push("b")) { $0.path.append(StackScreen.State(title: "b")) }
    try await store.send(.path(id: 1, .start))
    try await store.receive(.path(id: 1, .tick)) { $0.path[1].ticks = 1 }
    try await store.send(.path(id: 1, .close)) { $0.path.pop(from: 1) }
    #expect(store.state.path.ids == [0])
    try await store.finish()
  }

  @Test("a screen below the top that dismisses itself is popped with every screen above it")
  func screenBelowTopDismissesItself() async throws {
    let store = TestStore(initialState: StackApp.State(), StackApp.reducer)
    for title in ["a", "b", "c"] {
      try await store.send(.push(title)) { $0.path.append(StackScreen.State(title: title)) }
    }
    try await store.send(.path(id: 2, .start))
    try await store.receive(.path(id: 2, .tick)) { $0.path[2].ticks = 1 }
    try await store.send(.path(id: 1, .close)) { $0.path.pop(from: 1) }
    #expect(store.state.path.ids == [0])
    try await store.finish()
  }

  @Test("a failing step's diff shows each screen under its id")
  func diffShowsIDs() {
    var path: StackState<StackScreen.State> = [StackScreen.State(title: "a")]
    let before = dumpLines(path)
    path.append(StackScreen.State(title: "b"))
    let (a, b) = (path.ids[0], path.ids[1])
    #expect(
      dumpDiff(before, dumpLines(path)).split(separator: "\n") == [
        "  StackState<State>(", "    #\(a): StackScreen.State(title: \"a\", ticks: 0)",
        "+   #\(b): StackScreen.State(title: \"b\", ticks: 0)", "  )",
      ])
  }

  @Test("screens of several kinds, an enum: each case's actions reach its feature, others drop")
  func enumScreens() async throws {
    let store = TestStore(initialState: PathApp.State(), PathApp.reducer)
    try await store.send(.push(.list(StackScreen.State(title: "l")))) {
      $0.path.append(.list(StackScreen.State(title: "l")))
    }
    try await store.send(.push(.detail(PathApp.Detail.State()))) {
      $0.path.append(.detail(PathApp.Detail.State()))
    }
    try await store.send(.path(id: 0, .list(.tick))) {
      $0.path[0] = .list(StackScreen.State(title: "l", ticks: 1))
    }

    // An action for the other kind of screen than the one at that id is dropped and reported.
    let step = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.path(id: 0, .detail(.present)))
    }
    #expect(step?.message.contains("the state shows .list, not that case") == true)

    // The detail's sheet starts a timer; popping the detail ends it in that send.
    // One case of a screen, read and written by id and case, as TCA's `[id: 1, case: \.detail]`.
    try await store.send(.path(id: 1, .detail(.present))) {
      $0.path[id: 1][case: PathApp.Path.State.detail]?.sheet = StackScreen.State(title: "sheet")
    }
    try await store.send(.path(id: 1, .detail(.sheet(.start))))
    try await store.receive(.path(id: 1, .detail(.sheet(.tick)))) {
      $0.path[id: 1][case: PathApp.Path.State.detail]?.sheet?.ticks = 1
    }
    try await store.send(.popTo(0)) { $0.path.pop(to: 0) }
    try await store.finish()
  }

  @Test("one case of an enum, read and written through the function that makes it")
  func oneCase() {
    typealias Screen = PathApp.Path.State
    var path: StackState<Screen> = [.list(StackScreen.State(title: "l")), .detail(.init())]
    let (list, detail) = (path.ids[0], path.ids[1])
    #expect(path[id: list][case: Screen.list]?.title == "l")
    #expect(path[id: list][case: Screen.detail] == nil)
    #expect(path[id: detail][case: Screen.list] == nil)

    // Written: the payload of the case it holds changes; another case, or no screen, stays.
    path[id: detail][case: Screen.detail]?.sheet = StackScreen.State(title: "s")
    path[id: list][case: Screen.detail]?.sheet = StackScreen.State(title: "not here")
    path[id: list][case: Screen.detail] = PathApp.Detail.State()
    path[id: 99][case: Screen.list]?.ticks = 1
    #expect(Array(path) == [.list(.init(title: "l")), .detail(.init(sheet: .init(title: "s")))])

    // Two cases with one payload type are told apart; `nil` clears only the case it names.
    enum Twins: Equatable { case left(Int), right(Int), none }
    var twins: Twins? = .right(1)
    #expect(twins[case: Twins.left] == nil && twins[case: Twins.right] == 1)
    twins[case: Twins.left] = nil
    twins[case: Twins.left] = 2
    #expect(twins == .right(1))
    twins[case: Twins.right]? += 1
    #expect(twins == .right(2))
    twins[case: Twins.right] = nil
    #expect(twins == nil && twins[case: Twins.right] == nil)
    twins = Twins.none
    #expect(twins[case: Twins.left] == nil)

    // A struct has no cases: it reads nil and is never written.
    struct Point: Equatable {
      var x = 0
      var y = 7
    }
    var point: Point? = Point(x: 1, y: 99)
    point[case: { Point(x: $0) }] = 5
    #expect(point[case: { Point(x: $0) }] == nil && point == Point(x: 1, y: 99))
  }

  /// A screen that is `Identifiable` itself: the stack's ids still name it.
  fileprivate struct Named: Equatable, Identifiable {
    let id: String
    var taps = 0
  }

  fileprivate struct Numbered: Equatable, Identifiable {
    let id: Int
    var taps = 0
  }

  @Test("screens whose own ids are Ints, as the stack's are, are still found by the stack's ids")
  func intIdentifiableScreens() async {
    enum Action { case screen(id: Int, Bool) }
    let reducer = Reduce<StackState<Numbered>, Action> { _, _ in .none }
      .forEach(\.self, action: Action.screen) { (screen: inout Numbered, _: Bool) in
        screen.taps += 1
        return .none
      }
    let store = Store(initialState: [Numbered(id: 500), Numbered(id: 501)], reducer)
    let (screen, unused) = (store.state.ids[1], store.state.ids[1] + 1_000)
    let reports = await capturingReports { store.send(.screen(id: screen, true)) }.reports
    #expect(store.state.map(\.taps) == [0, 1] && reports.isEmpty)
    let dropped = await capturingReports { store.send(.screen(id: unused, true)) }.reports
    #expect(dropped.count == 1 && store.state.map(\.taps) == [0, 1])
  }

  @Test("screens that are Identifiable themselves are still found by the stack's ids")
  func identifiableScreens() {
    let reducer = Reduce<StackState<Named>, (Int, Bool)> { _, _ in .none }
      .forEach(\.self, action: { ($0, $1) }, extract: { $0 }) { (screen: inout Named, _: Bool) in
        screen.taps += 1
        return .none
      }
    let store = Store(initialState: [Named(id: "a"), Named(id: "b")], reducer)
    let b = store.state.ids[1]
    store.send((b, true))
    #expect(store.state.map(\.taps) == [0, 1] && store.state[id: b]?.id == "b")
    #expect(store.state[id: b + 7] == nil)
  }

  @Test("one stack embedded twice, by its ids and by the screens' own: each ends its effects")
  func stackByBothIds() {
    enum Action { case byStack(Int, Bool), byOwn(String, Bool), pop }
    let clock = TestClock()
    let child: Reducer<Named, Bool> = { screen, _ in
      screen.taps += 1
      return .run { _ in try await clock.sleep(for: .seconds(60)) }
    }
    let reducer = Reduce<StackState<Named>, Action> { state, action in
      if case .pop = action { state.removeLast() }
      return .none
    }
    .forEach(\.self, action: Action.byStack, child: child)
    .forEach(\.self, action: Action.byOwn, child: child)
    let store = Store(initialState: [Named(id: "a"), Named(id: "b")], reducer)
    // NB: Each send looks at the places in flight, of both embeddings of `\.self` at once.
    let (byStack, byOwn) = (
      store.send(.byStack(store.state.ids[1], true)), store.send(.byOwn("b", true))
    )
    let other = store.send(.byOwn("a", true))
    #expect(store.state.map(\.taps) == [1, 2])
    #expect(!byStack.isCancelled && !byOwn.isCancelled && !other.isCancelled)
    store.send(.pop)
    #expect(byStack.isCancelled && byOwn.isCancelled && !other.isCancelled)
    other.cancel()
  }

  @Test("one stack of screens with Int ids, by the stack's ids and by their own: each its own")
  func stackByBothIntIds() {
    enum Action { case byStack(Int, Bool), byOwn(Int, Bool), pop }
    let clock = TestClock()
    let child: Reducer<Numbered, Bool> = { screen, _ in
      screen.taps += 1
      return .run { _ in try await clock.sleep(for: .seconds(60)) }
    }
    let byStack = Reduce<StackState<Numbered>, Action> { state, action in
      if case .pop = action { state.removeLast() }
      return .none
    }
    .forEach(\.self, action: Action.byStack, child: child)
    // NB: The free function, generic over the collection, embeds by the screens' own ids.
    let reducer = MiniRedux.forEach(
      byStack.reduce, state: \.self,
      action: { if case .byOwn(let id, let tap) = $0 { (id, tap) } else { nil } },
      embed: Action.byOwn, child: child)
    let store = Store(initialState: [Numbered(id: 7), Numbered(id: 8)], reducer)
    let top = store.send(.byStack(store.state.ids[1], true))
    let bottom = store.send(.byOwn(7, true))
    #expect(store.state.map(\.taps) == [1, 1])
    #expect(!top.isCancelled && !bottom.isCancelled)
    store.send(.pop)
    #expect(top.isCancelled && !bottom.isCancelled)
    bottom.cancel()
  }

  /// An app whose root state is an enum: logged out, or a session with a timer.
  fileprivate enum Root {
    enum State: Equatable { case loggedOut, session(StackScreen.State) }
    enum Action: Equatable { case logIn, logOut, session(StackScreen.Action) }
    static var reducer: Reduce<State, Action> {
      Reduce { state, action in
        switch action {
        case .logIn: state = .session(StackScreen.State(title: "me"))
        case .logOut: state = .loggedOut
        case .session: break
        }
        return .none
      }
      .scope(State.session, action: Action.session, child: StackScreen.reduce)
    }
  }

  @Test("setting an enum state to another case ends the previous case's effects in that send")
  func caseSwitchEndsEffects() async throws {
    let store = TestStore(initialState: Root.State.loggedOut, Root.reducer)
    try await store.send(.logIn) { $0 = .session(StackScreen.State(title: "me")) }
    try await store.send(.session(.start))
    try await store.receive(.session(.tick)) {
      $0 = .session(StackScreen.State(title: "me", ticks: 1))
    }
    try await store.send(.logOut) { $0 = .loggedOut }
    try await store.finish()
  }

  @Test("a screen of one case of an enum path that dismisses itself is popped, with no report")
  func enumScreenDismisses() async throws {
    let store = TestStore(initialState: PathApp.State(), PathApp.reducer)
    try await store.send(.push(.list(StackScreen.State(title: "l")))) {
      $0.path.append(.list(StackScreen.State(title: "l")))
    }
    try await store.send(.path(id: 0, .list(.close))) { $0.path = [] }
    try await store.finish()
  }

  /// A stack of screens that each tick once per value fed to `stream` while listening.
  fileprivate static func listeners(_ stream: AsyncStream<Void>)
    -> Reduce<StackState<StackScreen.State>, StackAction>
  {
    Reduce { path, action in
      switch action {
      case .reset(let title): path = [StackScreen.State(title: title)]
      case .removeTitled(let title): path.removeAll { $0.title == title }
      case .push(let title): path.append(StackScreen.State(title: title))
      case .path: break
      }
      return .none
    }
    .forEach(\.self, action: StackAction.path) { screen, action in
      switch action {
      case .start: return .run { send in for await _ in stream { await send(.tick) } }
      case .tick: screen.ticks += 1
      case .close: break
      }
      return .none
    }
  }

  @Test("a stack assigned in place of another gives new ids, and ends the old screens' effects")
  func replacedStackEndsItsScreens() async throws {
    let (stream, feed) = AsyncStream<Void>.makeStream()
    defer { feed.finish() }
    let store = TestStore(initialState: [], Self.listeners(stream))
    try await store.send(.reset("old")) { $0 = [StackScreen.State(title: "old")] }
    try await store.send(.path(id: 0, .start))
    try await store.send(.reset("new")) { $0 = [StackScreen.State(title: "new")] }
    // The old screen's listener ended in that send, and the new screen is not screen 0.
    #expect(store.state.ids == [1])
    try await store.finish()
  }

  @Test("removeAll(where:), swapAt and reversing move screens with their ids")
  func screensKeepTheirIDs() async throws {
    var path: StackState<String> = ["a", "b", "c", "d"]
    let ids = path.ids
    path.removeAll { $0 == "b" }
    #expect(path.ids == [ids[0], ids[2], ids[3]] && Array(path) == ["a", "c", "d"])
    path.reverse()
    #expect(path.ids == [ids[3], ids[2], ids[0]] && path[id: ids[2]] == "c")

    // And in a store: removing "b" ends b's listener, and c keeps its own.
    let (stream, feed) = AsyncStream<Void>.makeStream()
    defer { feed.finish() }
    let store = TestStore(initialState: [], Self.listeners(stream))
    for title in ["a", "b", "c"] {
      try await store.send(.push(title)) { $0.append(StackScreen.State(title: title)) }
    }
    try await store.send(.path(id: 1, .start))
    try await store.send(.removeTitled("b")) { $0.removeAll { $0.title == "b" } }
    #expect(store.state.ids == [0, 2])
    try await store.finish()
  }
}

fileprivate enum StackAction: Equatable {
  case reset(String), removeTitled(String), push(String), path(id: Int, StackScreen.Action)
}

@MainActor
@Suite("StackState: a screen changes in place")
struct StackInPlaceTests {
  final class Box {}
  struct Screen: Equatable {
    var box = Box()
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box }
    /// Whether the box is this screen's alone: a copy of the screen made for a change shares it.
    mutating func isInPlace() -> Bool { isKnownUniquelyReferenced(&box) }
  }
  enum Destination: Equatable { case screen(Screen), other }

  @Test("a screen's reducer gets its state in place, not a copy: a send costs no copy of it")
  func screenInPlace() {
    var unique: [Bool] = []
    let store = Store(
      initialState: StackState([Screen(), Screen()]),
      Reduce<StackState<Screen>, (Int, Void)> { _, _ in .none }
        .forEach(\.self, action: { ($0, $1) }, extract: { $0 }) { screen, _ in
          // A copy of the screen, the stack's own besides the reducer's, would share its box.
          unique.append(screen.isInPlace())
          return .none
        })
    store.send((store.state.ids[1], ()))
    #expect(unique == [true])
  }
}

extension StackInPlaceTests {
  @Test("a screen changed through path[id:], or a case's payload through [case:], is in place")
  func subscriptsInPlace() {
    var path = StackState([Screen(), Screen(), Screen()])
    let (first, middle) = (path.ids[0], path.ids[1])
    #expect(path[id: middle]?.isInPlace() == true)
    #expect(path[id: 99]?.isInPlace() == nil)
    path[id: 99] = Screen()  // A screen not in the stack stays out.
    path[id: first] = nil  // Pops exactly that screen, the others keep their places and ids.
    #expect(path.count == 2 && path.ids.first == middle)

    var destination = Optional(Destination.screen(Screen()))
    #expect(destination[case: Destination.screen]?.isInPlace() == true)
    var other = Optional(Destination.other)
    other[case: Destination.screen] = Screen()  // Another case stays as it is.
    #expect(other == .other)
    destination[case: Destination.screen] = nil
    #expect(destination == nil)
    var stack: StackState<Destination> = [.screen(Screen())]
    #expect(stack[id: stack.ids[0]][case: Destination.screen]?.isInPlace() == true)
  }
}
