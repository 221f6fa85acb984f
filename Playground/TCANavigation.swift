// TCANavigation: TCA-style navigation, a stack of screens and one destination that is a sheet or
// an alert, whose children tell the app, then close themselves.
//
// Run it:     Playground/run TCANavigation   (well under a second: a few sleeps of 20 ms)
// In an app:  a NavigationStack over `store.path.ids`, each screen given its `store.scope`; a
//             sheet and an alert presented while `store.destination` is that case.
//
// The stack gives each screen an id that no other screen ever gets: read them from `path.ids`.
// Popping, dismissing and switching the destination only change the state: the effects of every
// child that leaves end in that same `send`. A child tells the app first, then closes itself:
// `.concatenate(.send(.delegate(...)), .dismiss)`, or `send.dismiss()` at the end of a `.run`.

import MiniRedux

/// A detail screen: it loads its item; Delete tells the app, then pops the screen.
enum Detail {
  struct State: Equatable {
    let item: Int
    var text: String?
  }
  enum Action { case onAppear, loaded(String), deleteTapped, delegate(Delegate) }
  enum Delegate { case deleted(Int) }

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
    case .deleteTapped:
      return .concatenate(.send(.delegate(.deleted(state.item))), .dismiss)
    case .delegate:
      return .none
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

/// A screen of the stack, above the app's root list: a detail or the settings.
enum Path {
  enum State: Equatable { case detail(Detail.State), settings(Settings.State) }
  enum Action { case detail(Detail.Action), settings(Settings.Action) }

  static let reducer = Reduce<State, Action> { _, _ in .none }
    .scope(State.detail, action: Action.detail, child: Detail.reduce)
    .scope(State.settings, action: Action.settings, child: Settings.reduce)
}

/// The sheet: a form whose Save uploads the draft, tells the app, then closes the sheet.
enum Editor {
  struct State: Equatable { var draft: String }
  enum Action { case autosave, saveTapped, cancelTapped, delegate(Delegate) }
  enum Delegate { case saved(String) }

  @MainActor static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .autosave:
      return .run { _ in try await Task.sleep(for: .seconds(60)) }
    case .saveTapped:
      return .run { [draft = state.draft] send in
        try await Task.sleep(for: .milliseconds(20))  // The upload.
        await send(.delegate(.saved(draft)))
        await send.dismiss()
      }
    case .cancelTapped:
      return .dismiss
    case .delegate:
      return .none
    }
  }
}

/// What the app presents: the sheet or an alert, each case a feature of its own. The alert has
/// no reducer: it closes on any of its buttons.
enum Destination: Equatable {
  case editor(Editor.State)
  case alert(String)
  enum Action { case editor(Editor.Action), alert(AlertAction) }
  enum AlertAction { case discardTapped }

  static let reducer = Reduce<Destination, Action> { _, _ in .none }
    .scope(Destination.editor, action: Action.editor, child: Editor.reduce)
    .scope(Destination.alert, action: Action.alert)
}

enum App {
  struct State {
    var path = StackState<Path.State>()
    var destination: Destination?
    var heard: [String] = []
  }
  enum Action {
    case itemTapped(Int), settingsTapped, itemDeletedElsewhere(Int), popToRoot
    case path(id: Int, Path.Action)
    case editTapped, showAlert(String)
    case destination(Destination.Action)
  }

  @MainActor static func core(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .itemTapped(let item):
      state.path.append(.detail(Detail.State(item: item)))
    case .settingsTapped:
      state.path.append(.settings(Settings.State()))
    case .itemDeletedElsewhere(let item):
      // Pops exactly the screens of that item; the screens above them stay.
      for id in state.path.ids {
        if case .detail(let detail) = state.path[id: id], detail.item == item {
          state.path[id: id] = nil
        }
      }
    case .popToRoot:
      state.path.removeAll()
    case .path(_, .detail(.delegate(.deleted(let item)))):
      let isShown = state.path.contains {
        if case .detail(let detail) = $0 { detail.item == item } else { false }
      }
      state.heard.append("deleted item \(item); its screen still shown: \(isShown)")
    case .editTapped:
      state.destination = .editor(Editor.State(draft: "Hello"))
    case .showAlert(let message):
      state.destination = .alert(message)
    case .destination(.editor(.delegate(.saved(let draft)))):
      state.heard.append("saved \"\(draft)\"; the sheet still open: \(state.destination != nil)")
    case .destination(.alert(.discardTapped)):
      state.heard.append("discarded; the alert closed: \(state.destination == nil)")
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
  let screens = path.map { screen in
    switch screen {
    case .detail(let detail): "detail \(detail.item) (\(detail.text ?? "loading"))"
    case .settings: "settings"
    }
  }
  return (["root"] + screens).joined(separator: " > ")
}

let app = Store(initialState: App.State(), App.reducer)

// A stack three screens deep: two details that load their items, and the settings, syncing.
app.send(.itemTapped(7))
app.send(.itemTapped(8))
app.send(.settingsTapped)
let ids = app.path.ids
await app.send(.path(id: ids[0], .detail(.onAppear))).finish()
await app.send(.path(id: ids[1], .detail(.onAppear))).finish()
let sync = app.send(.path(id: ids[2], .settings(.onAppear)))
print(show(app.path))  // root > detail 7 (Item 7) > detail 8 (Item 8) > settings

// Item 7 is deleted elsewhere: `path[id:] = nil` pops exactly its screen, and the sync goes on.
app.send(.itemDeletedElsewhere(7))
print(show(app.path), "| syncing:", !sync.isCancelled)  // root > detail 8 (...) > settings | ...

// Detail 8's Delete tells the app, which hears it while the screen is shown, then pops the
// screen with the settings above it, whose sync ends in this send.
app.send(.path(id: ids[1], .detail(.deleteTapped)))
print(app.heard.last!)  // deleted item 8; its screen still shown: true
print(show(app.path), "| sync cancelled:", sync.isCancelled)  // root | sync cancelled: true

// Pop to root, `path.removeAll()`: the load in flight ends. The screen pushed next gets an id
// that no screen had before.
app.send(.itemTapped(9))
let nine = app.path.ids[0]
let load = app.send(.path(id: nine, .detail(.onAppear)))
app.send(.popToRoot)
print(show(app.path), "| load cancelled:", load.isCancelled)  // root | load cancelled: true
app.send(.itemTapped(9))
print("ids given before:", ids + [nine], "| after pop to root:", app.path.ids)  // ... | ...: [4]

// The sheet saves: after the upload it tells the app, then closes; its autosave ends with it.
app.send(.editTapped)
let autosave = app.send(.destination(.editor(.autosave)))
await app.send(.destination(.editor(.saveTapped))).finish()
print(app.heard.last!)  // saved "Hello"; the sheet still open: true
let sheet = app.destination == nil ? "closed" : "open"
print("sheet:", sheet, "| autosave cancelled:", autosave.isCancelled)  // sheet: closed | ...: true

// The alert replaces the sheet, whose effects end in that send; its button closes it.
app.send(.editTapped)
let second = app.send(.destination(.editor(.autosave)))
app.send(.showAlert("Discard the draft?"))
let shown = app.destination.map { "\($0)" } ?? "none"
print("destination:", shown, "| the sheet's autosave cancelled:", second.isCancelled)  // ...: true
app.send(.destination(.alert(.discardTapped)))
print(app.heard.last!)  // discarded; the alert closed: true
