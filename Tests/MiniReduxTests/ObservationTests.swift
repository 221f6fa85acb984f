import Observation
import Testing

@testable import MiniRedux

/// A feature with several properties, one of them not `Equatable`.
enum Profile {
  struct Opaque { var value = 0 }
  struct State {
    var count = 0
    var name = ""
    var nickname: String?
    var opaque = Opaque()
  }
  enum Action: Sendable { case increment, rename(String), nickname(String?), touch, nothing, all }

  static func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .rename(let name): state.name = name
    case .nickname(let nickname): state.nickname = nickname
    case .touch: state.opaque.value += 1
    case .nothing: break
    case .all:
      state.count += 1
      state.name += "!"
      state.nickname = (state.nickname ?? "") + "?"
    }
    return .none
  }
}

/// Counts how often Observation tells a reader of `read` of a change, re-reading after each, as
/// SwiftUI re-renders a view's body.
@MainActor
final class Reader {
  private(set) var changes = 0
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    track()
  }

  private func track() {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      // NB: onChange runs synchronously in willSet, on the main actor here. Weakly, as the store
      // keeps this closure until its next change, and the reader keeps the store.
      MainActor.assumeIsolated {
        self?.changes += 1
        self?.track()
      }
    }
  }
}

@MainActor
@Suite("Observation: a view re-renders only for what it reads")
struct ObservationTests {
  @Test("store.count reads state.count, and its reader hears only of sends that changed it")
  func onlyWhatItReads() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let count = Reader { _ = store.count }
    #expect(store.count == 0)

    store.send(.rename("Blob"))
    store.send(.nothing)
    #expect(count.changes == 0)

    store.send(.increment)
    #expect(count.changes == 1)
    #expect(store.count == 1)
    store.send(.increment)
    #expect(count.changes == 2)
  }

  @Test("an optional property is compared as a whole: nil to a value, a value to nil")
  func optionalProperty() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let nickname = Reader { _ = store.nickname }
    store.send(.nickname(nil))
    #expect(nickname.changes == 0)
    store.send(.nickname("B"))
    store.send(.nickname("B"))
    #expect(nickname.changes == 1)
    store.send(.nickname(nil))
    #expect(nickname.changes == 2)
  }

  @Test("a property that is not Equatable tells its reader of every send")
  func notEquatable() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let opaque = Reader { _ = store.opaque }
    store.send(.nothing)
    store.send(.increment)
    #expect(opaque.changes == 2)
  }

  @Test("a reader of three properties that one send changes hears of it once")
  func oncePerSend() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let changes = Recorder<Int>()
    withObservationTracking {
      _ = (store.count, store.name, store.nickname)
    } onChange: {
      changes.append(1)
    }
    store.send(.all)
    #expect(changes.values.count == 1)
  }

  @Test("it hears once, after every action the send caused was reduced")
  func afterTheSend() {
    let store = Store<Int, Bool>(initialState: 0) { count, again in
      count += 1
      return again ? .send(false) : .none
    }
    let seen = Recorder<Int>()
    withObservationTracking {
      _ = store.bitWidth
      _ = store.description
    } onChange: {
      // NB: In willSet, the state is already the new one.
      MainActor.assumeIsolated { seen.append(store.state) }
    }
    store.send(true)
    #expect(seen.values == [2])
  }

  @Test("store.state keeps its meaning: its reader hears of every send")
  func wholeState() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let state = Reader { _ = store.state }
    store.send(.nothing)
    store.send(.rename("Blob"))
    #expect(state.changes == 2)
  }

  @Test("a scoped store reads its child's properties the same way")
  func scoped() {
    struct Parent {
      var profile = Profile.State()
      var other = 0
    }
    enum ParentAction: Sendable { case profile(Profile.Action), other }
    let store = Store<Parent, ParentAction>(initialState: Parent()) { state, action in
      switch action {
      case .profile(let action):
        return Profile.reduce(&state.profile, action).map(ParentAction.profile)
      case .other:
        state.other += 1
        return .none
      }
    }
    let child: Store<Profile.State, Profile.Action> =
      store.scope(state: \.profile, action: ParentAction.profile)
    let name = Reader { _ = child.name }
    let other = Reader { _ = store.other }
    child.send(.increment)
    store.send(.other)
    #expect(name.changes == 0)
    #expect(other.changes == 1)
    child.send(.rename("Blob"))
    #expect(name.changes == 1)
    #expect(child.name == "Blob")
  }

  @Test("what the store keeps grows with the properties read, never with the sends")
  func keepsOnlyWhatIsRead() {
    let store = Store(initialState: Profile.State(), Profile.reduce)
    let readers = [Reader { _ = store.count }, Reader { _ = store.name }]
    for _ in 0..<1_000 {
      store.send(.increment)
      store.send(.nothing)
    }
    #expect(readers[0].changes == 1_000)
    #expect(store.snapshot.observed == 2)
    withExtendedLifetime(readers) {}
  }
}

@MainActor
@Suite("One notification reaches Observation, then listeners, then scoped stores")
struct NotificationOrderTests {
  @MainActor final class Log { var lines: [String] = [] }

  @Test("a root store tells Observation before its listeners, and its scoped stores after them")
  func order() {
    let (log, store) = (Log(), Store(initialState: Profile.State(), Profile.reduce))
    let count = store.scope(state: \.count, action: { (_: Int) in Profile.Action.increment })
    _ = store.subscribe { log.lines.append("listener \($0.count)") }
    _ = count.subscribe { log.lines.append("scoped listener \($0)") }
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated { log.lines.append("Observation of the root") }
    }
    withObservationTracking {
      _ = count.state
    } onChange: {
      MainActor.assumeIsolated { log.lines.append("Observation of the scoped store") }
    }
    log.lines = []
    store.send(.increment)
    // NB: A scoped store's listeners are the root store's, in the order they subscribed.
    #expect(
      log.lines == [
        "Observation of the root", "listener 1", "scoped listener 1",
        "Observation of the scoped store",
      ])
  }

  @Test("a listener that Observation's onChange adds hears of the change it was added in")
  func listenerAddedDuringObservation() {
    let (log, store) = (Log(), Store(initialState: Profile.State(), Profile.reduce))
    withObservationTracking {
      _ = store.count
    } onChange: {
      MainActor.assumeIsolated {
        _ = store.subscribe { log.lines.append("late listener \($0.count)") }
      }
    }
    store.send(.increment)
    #expect(log.lines == ["late listener 1", "late listener 1"])
  }
}
