import Testing

@testable import MiniRedux

// A feature's reducer as a `Reduce` value: its own logic, then one call per child, naming the
// child's state and the case that wraps its actions, with the case found at run time by default.

/// A child that counts its taps and, on `.start`, ticks until cancelled.
private enum Tally {
  struct State: Equatable, Identifiable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable { case tap, start, tick }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .tap, .tick:
      state.count += 1
      return .none
    case .start:
      return .run { send in
        while !Task.isCancelled {
          await send(.tick)
          try await Task.sleep(for: .seconds(1000))
        }
      }
    }
  }
}

/// A parent with a child of each kind, two of them of one type, and a log of what it saw.
private enum Parent {
  struct State: Equatable {
    var header = Tally.State()
    var footer = Tally.State()
    var sheet: Tally.State?
    var rows: [Tally.State] = []
    var log: [String] = []
  }
  enum Action: Equatable {
    case header(Tally.Action), footer(Tally.Action), sheet(Tally.Action)
    case row(id: Int, action: Tally.Action)
    case dismissSheet, removeRows, note(String)
  }

  /// Made anew for each test, as each embedding learns its case's name from the actions it sees.
  static var reducer: Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .dismissSheet: state.sheet = nil
      case .removeRows: state.rows = []
      default: break
      }
      // The child's reducer ran before this one: the log shows the child's count after it.
      state.log.append(
        "\(dumpLine(action)) header \(state.header.count) footer \(state.footer.count)")
      return .none
    }
    .scope(\.header, action: Action.header, child: Tally.reduce)
    .scope(\.footer, action: Action.footer, child: Reduce(Tally.reduce))
    .ifLet(\.sheet, action: Action.sheet, child: Tally.reduce)
    .forEach(\.rows, action: Action.row, child: Tally.reduce)
  }
}

@MainActor
@Suite("Reduce: children added in reading order, their cases found at run time", .throwingFailures)
struct ReduceTests {
  @Test("each child gets the actions of its own case, even when two cases carry the same type")
  func casesOfOneTypeGoToTheirOwnChild() {
    // Given: a header and a footer of the same feature type, embedded under two cases.
    let store = Store(initialState: Parent.State(), Parent.reducer)

    // When: each is sent an action, and the parent an action that carries a payload too.
    store.send(.header(.tap))
    store.send(.footer(.tap))
    store.send(.footer(.tap))
    store.send(.note("hello"))

    // Then: the right child counted each, before the parent ran.
    #expect(store.header.count == 1)
    #expect(store.footer.count == 2)
    #expect(
      store.log == [
        ".header(.tap) header 1 footer 0", ".footer(.tap) header 1 footer 1",
        ".footer(.tap) header 1 footer 2", ".note(\"hello\") header 1 footer 2",
      ])
  }

  @Test("an optional child and rows get their actions, and their effects end when removed")
  func optionalChildAndRows() async throws {
    // Given: a sheet and two rows, each with a timer running.
    let initial = Parent.State(sheet: Tally.State(), rows: [.init(id: 1), .init(id: 2)])
    let store = TestStore(initialState: initial, Parent.reducer)
    store.exhaustivity = .off
    try await store.send(.sheet(.start))
    try await store.receive(.sheet(.tick)) { $0.sheet?.count = 1 }
    try await store.send(.row(id: 2, action: .start))
    try await store.receive(.row(id: 2, action: .tick)) { $0.rows[1].count = 1 }
    try await store.send(.row(id: 1, action: .tap)) { $0.rows[0].count = 1 }

    // When: the parent removes them.
    try await store.send(.dismissSheet) { $0.sheet = nil }
    try await store.send(.removeRows) { $0.rows = [] }

    // Then: nothing is left running (`finish` fails on a timer still in flight).
    try await store.finish()
  }

  @Test("an action for a child that is gone is dropped and reported, as with an extract closure")
  func goneChildIsReported() async throws {
    let store = TestStore(initialState: Parent.State(), Parent.reducer)
    let step = await #expect(throws: TestStoreFailure.self) { try await store.send(.sheet(.tap)) }
    #expect(step?.message.contains("dropped .sheet(.tap), as \\State.sheet is nil") == true)
  }

  @Test("an extract closure, the fast path, is used instead of reading the case")
  func extractClosure() {
    // Given: an extract closure that routes `.note("row")` to row 1 as a tap.
    let reducer = Reduce<Parent.State, Parent.Action> { _, _ in .none }
      .forEach(
        \.rows, action: Parent.Action.row,
        extract: { action in action == .note("row") ? (1, .tap) : nil }, child: Tally.reduce)
    let store = Store(initialState: Parent.State(rows: [.init(id: 1)]), reducer)

    // When: the row's own case and the note are sent.
    store.send(.row(id: 1, action: .tap))
    store.send(.note("row"))

    // Then: only the closure's choice reached the row.
    #expect(store.rows[0].count == 1)
  }

  /// Cases written the ways Swift allows: indirect, with a labelled payload, in a generic enum.
  fileprivate enum Shapes<Extra: Equatable & Sendable>: Equatable, Sendable {
    indirect case boxed(Tally.Action)
    case labelled(action: Tally.Action)
    case extra(Extra)
    case plain
  }

  @Test("an indirect case, a labelled payload and a generic enum are each found by their case")
  func caseShapes() {
    typealias Action = Shapes<Tally.Action>
    let reducer = Reduce<[Tally.State], Action> { _, _ in .none }
      .scope(\.[0], action: Action.boxed, child: Tally.reduce)
      .scope(\.[1], action: { Action.labelled(action: $0) }, child: Tally.reduce)
    let store = Store(initialState: [Tally.State(), Tally.State()], reducer)
    // The first actions carry a payload of the child's type under another case.
    store.send(.extra(.tap))
    store.send(.plain)
    store.send(.boxed(.tap))
    store.send(.labelled(action: .tap))
    store.send(.labelled(action: .tap))
    #expect(store.state.map(\.count) == [1, 2])
  }

  @Test("receive by case finds a labelled payload, which reflection shows as a tuple of one")
  func receiveLabelledPayload() async throws {
    let reducer = Reduce<Int, Shapes<Int>> { state, action in
      state += 1
      return action == .plain ? .send(.labelled(action: .tap)) : .none
    }
    let store = TestStore(initialState: 0, reducer)
    try await store.send(.plain) { $0 = 1 }
    try await store.receive(Shapes<Int>.labelled, where: { $0 == .tap }) { $0 = 2 }
    try await store.finish()
  }

  /// A child whose state is a state machine, not an enum of destinations.
  fileprivate enum Loader {
    enum State: Equatable { case idle, loading, loaded(Int) }
    enum Action: Equatable { case start, finished(Int) }
    static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state = .loading
        return .run { send in await send(.finished(3)) }
      case .finished(let count):
        state = .loaded(count)
        return .none
      }
    }
  }

  @Test(
    "an optional child whose state is an enum gets every action, and keeps the effects it starts")
  func enumStateChild() async throws {
    struct State: Equatable { var loader: Loader.State? = .idle }
    enum Action: Equatable { case loader(Loader.Action) }
    let reducer = Reduce<State, Action> { _, _ in .none }
      .ifLet(\.loader, action: Action.loader, child: Loader.reduce)
    let store = TestStore(initialState: State(), reducer)
    // The child's action cases are not named after its state's cases, and it changes its own case.
    try await store.send(.loader(.start)) { $0.loader = .loading }
    try await store.receive(.loader(.finished(3))) { $0.loader = .loaded(3) }
    try await store.finish()
  }

  @Test("an optional child that changes its own id keeps the effects it returned")
  func childChangesItsOwnID() async throws {
    struct Draft: Equatable, Identifiable {
      var id = "draft"
      var saved = false
    }
    enum DraftAction: Equatable { case save, saved }
    struct State: Equatable { var draft: Draft? = Draft() }
    enum Action: Equatable { case draft(DraftAction) }
    let reducer = Reduce<State, Action> { _, _ in .none }
      .ifLet(\.draft, action: Action.draft) { (draft: inout Draft, action: DraftAction) in
        if action == .saved {
          draft.saved = true
          return .none
        }
        draft.id = "server-42"
        return .run { send in await send(.saved) }
      }
    let store = TestStore(initialState: State(), reducer)
    try await store.send(.draft(.save)) { $0.draft?.id = "server-42" }
    try await store.receive(.draft(.saved)) { $0.draft?.saved = true }
    try await store.finish()
  }

  @Test("a payload that is not the child's action does not hide its case for good")
  func castFailureDoesNotHideTheCase() {
    enum Action: Equatable { case child(Tally.Action?) }
    let reducer = Reduce<Tally.State, Action> { _, _ in .none }
      .scope(\.self, action: { Action.child($0) }, child: Tally.reduce)
    let store = Store(initialState: Tally.State(), reducer)
    store.send(.child(nil))  // Not a `Tally.Action`: the case is not learned from it.
    store.send(.child(.tap))
    #expect(store.count == 1)
  }
}
