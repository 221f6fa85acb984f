import Testing

@testable import MiniRedux

/// A sheet, or a row, that can close itself: `.close` returns `.dismiss`; `.save` tells its
/// parent, then closes; `.listen` starts an effect that runs until cancelled.
enum Closable {
  struct State: Equatable, Identifiable {
    var id = 0
    var note = ""
  }
  enum Action: Equatable, Sendable {
    case listen, close, save, closeAndPing, ping
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case saved }

  static let reduce: Reducer<State, Action> = { state, action in
    switch action {
    case .listen: return .run { _ in await untilCancelled() }
    case .close: return .dismiss
    case .save:
      return .run { send in
        await send(.delegate(.saved))
        await send(.close)
      }
    case .closeAndPing: return .merge(.send(.ping), .dismiss)
    case .ping, .delegate: return .none
    }
  }
}

/// A screen with a sheet, rows and an enum destination, each of which can close itself.
enum Host {
  struct State: Equatable {
    var sheet: Closable.State?
    var rows: [Closable.State] = []
    var destination: Destination?
    var saved = 0
  }
  enum Destination: Equatable {
    case note(Closable.State)
    case alert(String)
  }
  enum DestinationAction: Equatable, Sendable { case note(Closable.Action), alert }
  enum Action: Equatable, Sendable {
    case sheet(Closable.Action)
    case row(Int, Closable.Action)
    case destination(DestinationAction)
  }

  static let destination: Reducer<Destination, DestinationAction> = { destination, action in
    guard case .note(var note) = destination, case .note(let action) = action else { return .none }
    let effect = Closable.reduce(&note, action)
    destination = .note(note)
    // NB: Through `scope`'s embedding, as a part of a feature is: its `.dismiss` is the whole one's.
    return effect.map(DestinationAction.note)
  }

  static let reduce: Reducer<State, Action> = forEach(
    ifLet(
      ifLet(
        { state, action in
          if case .sheet(.delegate(.saved)) = action { state.saved += 1 }
          return .none
        }, state: \.sheet, action: { if case .sheet(let a) = $0 { a } else { nil } },
        embed: Action.sheet, child: Closable.reduce),
      state: \.destination, action: { if case .destination(let a) = $0 { a } else { nil } },
      embed: Action.destination, child: destination),
    state: \.rows, action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } },
    embed: Action.row, child: Closable.reduce)
}

@MainActor
@Suite("Child features dismiss themselves with .dismiss", .throwingFailures)
struct DismissTests {
  @Test("a sheet that returns .dismiss is removed, and its effects end, in that send")
  func sheetDismissesItself() async throws {
    let store = TestStore(initialState: Host.State(sheet: Closable.State()), Host.reduce)
    try await store.send(.sheet(.listen))
    try await store.send(.sheet(.close)) { $0.sheet = nil }
    try await store.finish()
  }

  @Test("a sheet tells its parent, then dismisses itself, from an effect")
  func sheetSavesThenDismisses() async throws {
    let store = TestStore(initialState: Host.State(sheet: Closable.State()), Host.reduce)
    store.timeout = patience
    try await store.send(.sheet(.listen))
    try await store.send(.sheet(.save))
    try await store.receive(.sheet(.delegate(.saved))) { $0.saved = 1 }
    try await store.receive(.sheet(.close)) { $0.sheet = nil }
    try await store.finish()
  }

  @Test("a row that dismisses itself leaves the collection, its siblings and their effects stay")
  func rowDismissesItself() async throws {
    let rows = (1...3).map { Closable.State(id: $0) }
    let store = TestStore(initialState: Host.State(rows: rows), Host.reduce)
    try await store.send(.row(2, .listen))
    try await store.send(.row(3, .listen))
    try await store.send(.row(2, .close)) { $0.rows.remove(at: 1) }
    #expect(store.state.rows.map(\.id) == [1, 3])
    let leftover = await #expect(throws: TestStoreFailure.self) {
      try await store.finish(timeout: .milliseconds(10))
    }
    #expect(leftover?.message.contains("effects of .row(3, .listen)") == true)
  }

  @Test("an enum destination dismisses itself, also from a part of it")
  func destinationDismissesItself() async throws {
    let store = TestStore(
      initialState: Host.State(destination: .note(Closable.State())), Host.reduce)
    try await store.send(.destination(.note(.listen)))
    try await store.send(.destination(.note(.close))) { $0.destination = nil }
    try await store.finish()
  }

  @Test("what a child returns with .dismiss ends with it, unstarted, and is reported")
  func dismissWithOtherEffects() async throws {
    let store = TestStore(initialState: Host.State(sheet: Closable.State()), Host.reduce)
    let failure = await #expect(throws: TestStoreFailure.self) {
      try await store.send(.sheet(.closeAndPing)) { $0.sheet = nil }
    }
    #expect(failure?.message.contains("returned .dismiss with other effects") == true)
    #expect(store.state.sheet == nil)
    try await store.finish()
  }

  @Test("a .dismiss before other steps of a concatenation ends them, unstarted, and is reported")
  func dismissBeforeOtherSteps() async {
    let store = Store(
      initialState: Host.State(sheet: Closable.State()),
      ifLet(
        { (_: inout Host.State, _: Host.Action) in .none }, state: \.sheet,
        action: { if case .sheet(let a) = $0 { a } else { nil } }, embed: Host.Action.sheet,
        child: { (_: inout Closable.State, action: Closable.Action) in
          action == .close ? .concatenate(.dismiss, .send(.ping)) : .none
        }))
    let (_, reports) = await capturingReports { store.send(.sheet(.close)) }
    #expect(store.state.sheet == nil)
    #expect(
      reports == [
        "MiniRedux: the child returned .dismiss with other effects for .sheet(.close); "
          + "they ended with it, unstarted. To send the parent an action first, return "
          + ".concatenate(.send(action), .dismiss)."
      ])
  }

  @Test(".dismiss after a step, with steps after it, ends them unstarted and reports them")
  func dismissBetweenSteps() async {
    for late in [true, false] {
      let store = Store(
        initialState: Host.State(sheet: Closable.State()),
        ifLet(
          { (_: inout Host.State, _: Host.Action) in .none }, state: \.sheet,
          action: { if case .sheet(let a) = $0 { a } else { nil } }, embed: Host.Action.sheet,
          child: { (note: inout Closable.State, action: Closable.Action) in
            guard action == .close else { return (note.note += "p", .none).1 }
            // A `.dismiss` step between two sends, or `send.dismiss()` in a step before a send.
            let dismiss: Effect<Closable.Action> = late ? .run { await $0.dismiss() } : .dismiss
            return .concatenate(.send(.ping), dismiss, .send(.ping))
          }))
      let (_, reports) = await capturingReports { await store.send(.sheet(.close)).finish() }
      #expect(store.state.sheet == nil)
      #expect(
        reports == [
          "MiniRedux: .dismiss\(late ? "" : " for .sheet(.close)") came before other steps of a "
            + "concatenation; they ended with the child, unstarted. Make .dismiss the last step."
        ])
    }
  }

  @Test(".dismiss from a root reducer, or a collection that cannot remove, is reported")
  func dismissMisuse() async throws {
    let (_, rootReports) = await capturingReports {
      let store = Store(initialState: 0) { (_: inout Int, _: Bool) in .dismiss }
      store.send(true)
    }
    #expect(rootReports.count == 1)
    #expect(rootReports.first?.contains("only a child embedded with ifLet or forEach") == true)

    struct Fixed: MutableCollection, RandomAccessCollection, Equatable {
      var elements = [Closable.State(id: 1)]
      var startIndex: Int { 0 }
      var endIndex: Int { elements.count }
      subscript(index: Int) -> Closable.State {
        get { elements[index] }
        set { elements[index] = newValue }
      }
    }
    let store = Store(
      initialState: Fixed(),
      forEach(
        { (_: inout Fixed, _: Host.Action) in .none }, state: \.self,
        action: { if case .row(let id, let a) = $0 { (id, a) } else { nil } },
        embed: Host.Action.row, child: Closable.reduce))
    let (_, reports) = await capturingReports { store.send(.row(1, .close)) }
    #expect(reports.first?.contains("its collection cannot remove elements") == true)
    #expect(store.state.elements.count == 1)
  }
}
