// TCANavigation: TCA-style navigation, a stack of three kinds of screens and one destination that is
// a sheet or an alert, whose children close themselves.
//
// Run it:     Playground/run TCANavigation   (well under a second: a few loads of 20 ms)
// In an app:  a NavigationStack over `store.state.path`, each screen given its `store.scope`; a
//             sheet and an alert presented while `store.state.destination` is that case.
//
// The stack gives each screen its id. Popping, dismissing and switching the destination only
// change the state: the effects of every child that leaves are cancelled in that same `send`, and
// a child closes itself by returning `.dismiss`.

import MiniRedux

/// A detail screen: it loads its item, and its Done button pops it.
enum Detail {
  struct State: Equatable {
    let item: Int
    var text: String?
  }
  enum Action { case onAppear, loaded(String), doneTapped }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      let item = state.item
      return .run { send in
        try await Task.sleep(for: .milliseconds(20))
        await send(.loaded("Item \(item)"))
      }
    case .loaded(let text):
      state.text = text
      return .none
    case .doneTapped:
      return .dismiss
    }
  }
}

/// A settings screen: it syncs in the background for as long as it is on the stack.
enum Settings {
  struct State: Equatable { var syncs = 0 }
  enum Action { case onAppear, synced }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { send in
        while true {
          try await Task.sleep(for: .milliseconds(5))
          await send(.synced)
        }
      }
    case .synced:
      state.syncs += 1
      return .none
    }
  }
}

/// A screen of the stack: the list, a detail or the settings. The list's taps go to the app.
enum Path {
  enum State: Equatable { case list, detail(Detail.State), settings(Settings.State) }
  enum Action { case itemTapped(Int), detail(Detail.Action), settings(Settings.Action) }

  static let reducer = Reduce<State, Action> { _, _ in .none }
    .scope(State.detail, action: Action.detail, child: Detail.reduce)
    .scope(State.settings, action: Action.settings, child: Settings.reduce)
}

/// The sheet: a form whose Save tells the app, then closes the sheet.
enum Editor {
  struct State: Equatable { var draft: String }
  enum Action { case autosave, saveTapped, closeTapped, delegate(Delegate) }
  enum Delegate { case saved(String) }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .autosave:
      return .run { _ in try await Task.sleep(for: .seconds(60)) }
    case .saveTapped:
      return .run { [draft = state.draft] send in
        await send(.delegate(.saved(draft)))
        await send(.closeTapped)
      }
    case .closeTapped:
      return .dismiss
    case .delegate:
      return .none
    }
  }
}

/// What the app presents: the sheet or an alert, each case a feature of its own.
enum Destination: Equatable {
  case editor(Editor.State)
  case alert(String)
  enum Action { case editor(Editor.Action), alert(AlertAction) }
  enum AlertAction { case okTapped }

  static let reducer = Reduce<Destination, Action> { _, action in
    if case .alert(.okTapped) = action { return .dismiss }
    return .none
  }
  .scope(Destination.editor, action: Action.editor, child: Editor.reduce)
}

enum App {
  struct State {
    var path = StackState<Path.State>()
    var destination: Destination?
    var saved: [String] = []
  }
  enum Action {
    case push(Path.State)
    case popTo(id: Int)
    case path(id: Int, Path.Action)
    case showEditor, showAlert(String)
    case destination(Destination.Action)
  }

  @MainActor static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .push(let screen):
      state.path.append(screen)
    case .path(_, .itemTapped(let item)):
      state.path.append(.detail(Detail.State(item: item)))
    case .popTo(let id):
      state.path.pop(to: id)
    case .showEditor:
      state.destination = .editor(Editor.State(draft: "Hello"))
    case .showAlert(let message):
      state.destination = .alert(message)
    case .destination(.editor(.delegate(.saved(let draft)))):
      state.saved.append(draft)
    case .path, .destination:
      break
    }
    return .none
  }

  static let reducer = Reduce(core)
    .ifLet(\.destination, action: Action.destination, child: Destination.reducer)
    .forEach(\.path, action: Action.path, child: Path.reducer)
}

func show(_ path: StackState<Path.State>) -> String {
  path.map { screen in
    switch screen {
    case .list: "list"
    case .detail(let detail): "detail \(detail.item) (\(detail.text ?? "loading"))"
    case .settings: "settings"
    }
  }.joined(separator: ", ")
}

let app = Store(initialState: App.State(), App.reducer)

// A stack three screens deep: the list, a detail loading its item, the settings syncing.
app.send(.push(.list))
app.send(.path(id: 0, .itemTapped(7)))
let load = app.send(.path(id: 1, .detail(.onAppear)))
app.send(.push(.settings(Settings.State())))
let sync = app.send(.path(id: 2, .settings(.onAppear)))
print("stack:", show(app.state.path))  // stack: list, detail 7 (loading), settings

// Pop several, back to the list: the detail's load and the settings' sync end in this send.
app.send(.popTo(id: 0))
print("stack:", show(app.state.path))  // stack: list
print("load and sync cancelled:", load.isCancelled, sync.isCancelled)  // ... true true

// A detail that loads, then pops itself with its Done button.
app.send(.path(id: 0, .itemTapped(8)))
await app.send(.path(id: 3, .detail(.onAppear))).finish()
print("stack:", show(app.state.path))  // stack: list, detail 8 (Item 8)
app.send(.path(id: 3, .detail(.doneTapped)))
print("stack:", show(app.state.path))  // stack: list

// The sheet saves: it tells the app, then closes itself; its autosave ends with it.
app.send(.showEditor)
let autosave = app.send(.destination(.editor(.autosave)))
await app.send(.destination(.editor(.saveTapped))).finish()
print("saved:", app.state.saved, "sheet:", app.state.destination == nil ? "closed" : "open")  // ...
print("autosave cancelled:", autosave.isCancelled)  // autosave cancelled: true

// The alert replaces the sheet: the sheet's effects end in that send. Its OK closes it.
app.send(.showEditor)
let second = app.send(.destination(.editor(.autosave)))
app.send(.showAlert("Discard the draft?"))
print("destination:", app.state.destination.map { "\($0)" } ?? "none")  // destination: alert(...)
print("the sheet's autosave cancelled:", second.isCancelled)  // ... true
app.send(.destination(.alert(.okTapped)))
print("destination:", app.state.destination.map { "\($0)" } ?? "none")  // destination: none
