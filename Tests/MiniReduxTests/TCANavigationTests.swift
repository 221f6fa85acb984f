import Testing

@testable import MiniRedux

/// An editor shown as a destination: it saves, tells its parent, then dismisses itself, in one
/// effect, as TCA's features do: after a `.send`, or from inside a `.run`.
enum Editing {
  struct State: Equatable, Identifiable {
    var id = 0
    var draft = ""
  }
  enum Action: Equatable, Sendable {
    case saveTapped, saveAfterWork, listen, tick
    case delegate(Delegate)
  }
  enum Delegate: Equatable, Sendable { case saved(String) }

  static func reducer(_ gate: Gate) -> Reducer<State, Action> {
    { state, action in
      switch action {
      case .saveTapped:
        return .concatenate(.send(.delegate(.saved(state.draft))), .dismiss)
      case .saveAfterWork:
        return .run { [draft = state.draft] send in
          await gate.wait()
          await send(.delegate(.saved(draft)))
          await send.dismiss()
        }
      case .listen:
        return .run { send in
          await untilCancelled()
          await send(.tick)
        }
      case .tick, .delegate:
        return .none
      }
    }
  }
}

/// A list whose destination is an editor, or an alert: an enum, each case a child of its own,
/// and a case whose value is `Identifiable` a new child when its `id` changes.
enum Library {
  struct State: Equatable {
    var destination: Destination?
    var saved: [String] = []
    /// Whether the editor was still there when the parent reduced its delegate action.
    var editorPresentWhenSaved: [Bool] = []
  }
  enum Destination: Equatable {
    case edit(Editing.State)
    case alert(String)
  }
  enum DestinationAction: Equatable, Sendable {
    case edit(Editing.Action)
    case alert(Alert)
  }
  enum Alert: Equatable, Sendable { case ok }
  enum Action: Equatable, Sendable {
    case edit(Int), showAlert
    case destination(DestinationAction)
  }

  static func reducer(_ gate: Gate) -> Reduce<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .edit(let id):
        state.destination = .edit(Editing.State(id: id, draft: "draft \(id)"))
      case .showAlert:
        state.destination = .alert("Saved")
      case .destination(.edit(.delegate(.saved(let draft)))):
        state.saved.append(draft)
        if case .edit = state.destination {
          state.editorPresentWhenSaved.append(true)
        } else {
          state.editorPresentWhenSaved.append(false)
        }
      case .destination:
        break
      }
      return .none
    }
    .ifLet(
      \.destination, action: Action.destination,
      child: Reduce<Destination, DestinationAction> { _, _ in .none }
        .scope(Destination.edit, action: DestinationAction.edit, child: Editing.reducer(gate))
        .scope(Destination.alert, action: DestinationAction.alert))
  }
}

@MainActor
@Suite("TCA navigation: tell the parent, then dismiss, in one effect")
struct TellThenDismissTests {
  @Test(".concatenate(.send(.delegate), .dismiss): the parent hears while the child is there")
  func concatenated() async {
    let (gate, reports) = (Gate(), Recorder<String>())
    let store = Store(initialState: Library.State(), Library.reducer(gate))
    await miniReduxReporter.withValue(reporter { reports.append($0) }) {
      store.send(.edit(1))
      let listening = store.send(.destination(.edit(.listen)))
      store.send(.destination(.edit(.saveTapped)))
      await finished(listening)
    }
    expectSavedThenClosed(store, reports)
  }

  /// The editor told its parent while it was there, then went with all its effects, silently.
  func expectSavedThenClosed(
    _ store: Store<Library.State, Library.Action>, _ reports: Recorder<String>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(store.state.saved == ["draft 1"], sourceLocation: sourceLocation)
    #expect(store.state.editorPresentWhenSaved == [true], sourceLocation: sourceLocation)
    #expect(store.state.destination == nil, sourceLocation: sourceLocation)
    #expect(
      store.snapshot.effects == 0 && store.snapshot.ids == 0, sourceLocation: sourceLocation)
    #expect(reports.values.isEmpty, sourceLocation: sourceLocation)
  }

  @Test(
    "await send.dismiss() from a .run, after async work: the delegate first, then the child goes")
  func fromRun() async {
    let (gate, reports) = (Gate(), Recorder<String>())
    let store = Store(initialState: Library.State(), Library.reducer(gate))
    await miniReduxReporter.withValue(reporter { reports.append($0) }) {
      store.send(.edit(1))
      let listening = store.send(.destination(.edit(.listen)))
      let saving = store.send(.destination(.edit(.saveAfterWork)))
      #expect(store.state.destination != nil)
      gate.open()
      await finished(saving)
      await finished(listening)
    }
    expectSavedThenClosed(store, reports)
  }

  @Test("a cancelled effect's send.dismiss() does nothing; a root store's .dismiss is reported")
  func cancelledOrNotEmbedded() async {
    let gate = Gate()
    let store = Store(initialState: Library.State(), Library.reducer(gate))
    store.send(.edit(1))
    let saving = store.send(.destination(.edit(.saveAfterWork)))
    saving.cancel()
    gate.open()
    await finished(saving)
    #expect(store.state.destination == .edit(Editing.State(id: 1, draft: "draft 1")))

    let (_, reports) = await capturingReports {
      let root = Store<Int, Int>(initialState: 0) { _, action in
        action == 0 ? .concatenate(.send(1), .dismiss) : .none
      }
      root.send(0)
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("only a child embedded with ifLet or forEach") == true)
  }
}

@MainActor
@Suite("TCA navigation: destinations by case and id, and whole paths in reports")
struct DestinationIdentityTests {
  @Test("an editor presented in place of another with another id is a new child: effects end")
  func newIDEndsEffects() async {
    let store = Store(initialState: Library.State(), Library.reducer(Gate()))
    store.send(.edit(1))
    let first = store.send(.destination(.edit(.listen)))
    #expect(store.snapshot.effects == 1)
    store.send(.edit(1))  // The same id: the same child, which keeps its effects.
    #expect(store.snapshot.effects == 1)
    store.send(.edit(2))
    await finished(first)
    #expect(first.isCancelled)
    #expect(store.snapshot.effects == 0)
  }

  @Test("an action for a case the state does not show is reported by the path the view sent")
  func wholePath() async {
    let store = Store(initialState: Library.State(), Library.reducer(Gate()))
    store.send(.showAlert)
    let (_, reports) = await capturingReports {
      store.send(.destination(.edit(.saveTapped)))
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("dropped .destination(.edit(.saveTapped))") == true)
  }

  @Test("an alert with no reducer of its own closes on any of its actions; the parent hears it")
  func alertCloses() {
    let store = Store(initialState: Library.State(), Library.reducer(Gate()))
    store.send(.showAlert)
    store.send(.destination(.alert(.ok)))
    #expect(store.state.destination == nil)
  }
}

@Suite("TCA navigation: a stack's ids name one screen, ever")
struct StackIDTests {
  struct Screen: Equatable { var count = 0 }

  @Test("no id is given twice: after removeAll(), pop(to:), or a stack assigned in place")
  func neverTwice() {
    var seen = Set<Int>()
    func fresh(_ ids: [Int]) -> Bool { ids.allSatisfy { seen.insert($0).inserted } }
    var path: StackState<Screen> = [Screen(), Screen()]
    #expect(fresh(path.ids))
    path.removeAll()
    path.append(Screen())
    #expect(fresh(path.ids))
    path.append(Screen())
    path.pop(to: path.ids[0])
    path.append(Screen())
    #expect(fresh([path.ids[1]]))
    path = [Screen()]
    #expect(fresh(path.ids))
    path = StackState()
    path.append(contentsOf: [Screen(), Screen()])
    #expect(fresh(path.ids))
  }

  @Test("path[id:] changes that screen; = nil pops exactly it; an id not there changes nothing")
  func subscriptByID() {
    var path: StackState<Screen> = [Screen(), Screen(), Screen()]
    let (bottom, middle, top) = (path.ids[0], path.ids[1], path.ids[2])
    path[id: middle]?.count += 1
    #expect(path.map(\.count) == [0, 1, 0])
    path[id: middle] = nil
    #expect(path.ids == [bottom, top])
    path[id: middle] = Screen(count: 5)
    path[id: middle]?.count += 1
    #expect(path.ids == [bottom, top] && path.map(\.count) == [0, 0])
  }
}
