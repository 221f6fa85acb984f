// ViewState: pure functions map domain state to view state, and view events to actions.
//
// Pulse's ViewStateReducing and DomainEventActionMap, without the protocols.
//
// Run it:     Playground/run ViewState
// In an app:  the SwiftUI view reads `homeViewState(from: store.state)` and calls
//             `homeAction(for:)` on each event; only the two functions know both layers.

import MiniRedux

// MARK: Domain: what the app knows.

struct Article: Sendable {
  let id: String
  let title: String
  let author: String
  let words: Int
}

/// A news service stand-in: it answers the first request and is offline after that.
actor FakeNewsService {
  private var requests = 0

  func topStories() throws -> [Article] {
    requests += 1
    guard requests == 1 else { throw Offline() }
    return [
      Article(id: "a1", title: "Swift 6 ships", author: "Holly", words: 900),
      Article(id: "a2", title: "Reducers stay pure", author: "Ben", words: 350),
    ]
  }

  struct Offline: Error, CustomStringConvertible {
    var description: String { "You are offline." }
  }
}

enum Home {
  struct State {
    var articles: [Article] = []
    var bookmarks: Set<String> = []
    var isLoading = false
    var failure: String?
  }
  enum Action {
    case load
    case loaded([Article])
    case failed(String)
    case toggleBookmark(id: String)
  }

  @MainActor static func store(service: FakeNewsService) -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .load:
        state.isLoading = true
        state.failure = nil
        return .run { send in
          await send(.loaded(try await service.topStories()))
        } catch: { error, send in
          await send(.failed("\(error)"))
        }
      case .loaded(let articles):
        state.isLoading = false
        state.articles = articles
        return .none
      case .failed(let message):
        state.isLoading = false
        state.failure = message
        return .none
      case .toggleBookmark(let id):
        if state.bookmarks.remove(id) == nil { state.bookmarks.insert(id) }
        return .none
      }
    }
  }
}

// MARK: View: what the screen shows and what the user does.

struct HomeViewState: Equatable {
  struct Row: Equatable {
    let id: String
    let title: String
    let detail: String
    let isBookmarked: Bool
  }
  var rows: [Row]
  var showsSpinner: Bool
  var banner: String?
}

enum HomeViewEvent {
  case onAppear
  case pulledToRefresh
  case bookmarkTapped(id: String)
  case rowTapped(id: String)
}

/// Domain state to view state: formatting and decisions the view should not make.
func homeViewState(from state: Home.State) -> HomeViewState {
  HomeViewState(
    rows: state.articles.map { article in
      HomeViewState.Row(
        id: article.id,
        title: article.title,
        detail: "by \(article.author), \((article.words + 199) / 200) min read",
        isBookmarked: state.bookmarks.contains(article.id))
    },
    showsSpinner: state.isLoading && state.articles.isEmpty,
    banner: state.failure.map { "\($0) Showing saved stories." })
}

/// View event to domain action; `nil` for events the domain does not handle (navigation).
func homeAction(for event: HomeViewEvent) -> Home.Action? {
  switch event {
  case .onAppear, .pulledToRefresh: return .load
  case .bookmarkTapped(let id): return .toggleBookmark(id: id)
  case .rowTapped: return nil
  }
}

// MARK: A screen, drawn as text.

let store = Home.store(service: FakeNewsService())
var screen = homeViewState(from: store.state)

/// Draws the screen if its view state changed, as SwiftUI would.
@MainActor func redraw() {
  let next = homeViewState(from: store.state)
  guard next != screen else { return }
  screen = next
  print("  screen:")
  if next.showsSpinner { print("    (spinner)") }
  if let banner = next.banner { print("    !", banner) }
  for row in next.rows {
    print("    \(row.isBookmarked ? "[*]" : "[ ]") \(row.title) - \(row.detail)")
  }
}

/// What the view does with a user event: map it, send it, and redraw as the state changes.
@MainActor func user(_ event: HomeViewEvent) async {
  let action = homeAction(for: event)
  print("\(event) -> \(action.map { "\($0)" } ?? "no domain action")")
  guard let action else { return }
  let effects = store.send(action)
  redraw()
  await effects.finish()
  redraw()
}

await user(.onAppear)
await user(.bookmarkTapped(id: "a2"))
await user(.rowTapped(id: "a1"))
await user(.pulledToRefresh)
// onAppear -> load
//   screen:
//     (spinner)
//   screen:
//     [ ] Swift 6 ships - by Holly, 5 min read
//     [ ] Reducers stay pure - by Ben, 2 min read
// bookmarkTapped(id: "a2") -> toggleBookmark(id: "a2")
//   screen:
//     [ ] Swift 6 ships - by Holly, 5 min read
//     [*] Reducers stay pure - by Ben, 2 min read
// rowTapped(id: "a1") -> no domain action
// pulledToRefresh -> load
//   screen:
//     ! You are offline. Showing saved stories.
//     [ ] Swift 6 ships - by Holly, 5 min read
//     [*] Reducers stay pure - by Ben, 2 min read
