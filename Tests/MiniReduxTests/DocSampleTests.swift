import Foundation
import Testing

/// Every code sample must compile, so none can rot: each ```swift block in the doc comments, in
/// README.md and in the articles of the DocC catalog must appear, line by line and in order, in a
/// region of DocSamples.swift (which the test target compiles), in a Playground script (which CI
/// runs), in .ci/check-combine (which compiles the Combine code on Linux), in .ci/check-package
/// (which builds the README's Package.swift samples), or in .ci/check-clocks (which compiles and
/// runs the samples that use swift-clocks and swift-dependencies).
@Suite("Code samples")
struct DocSampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The ```swift blocks of a text; in doc comments, without the `///` prefix.
  static func samples(in text: String, docComments: Bool) -> [[String]] {
    var samples: [[String]] = []
    var current: [String]?
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = rawLine.trimmingCharacters(in: .whitespaces)
      if docComments {
        guard line.hasPrefix("///") else { continue }
        line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
      }
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if current != nil, line.hasPrefix("```") {
        samples.append(current!)
        current = nil
      } else if current != nil, !line.isEmpty {
        current!.append(line)
      }
    }
    return samples
  }

  /// The places a sample may live, each a list of trimmed, non-empty lines.
  static func regions() throws -> [(name: String, lines: [String])] {
    func lines(_ text: some StringProtocol) -> [String] {
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
    var regions: [(String, [String])] = []
    let harness = try read("Tests/MiniReduxTests/DocSamples.swift")
    for (index, region) in harness.components(separatedBy: "// Sample:").enumerated().dropFirst() {
      regions.append(("DocSamples region \(index)", lines(region)))
    }
    let playground = root.appendingPathComponent("Playground")
    for file in try FileManager.default.contentsOfDirectory(atPath: playground.path)
    where file.hasSuffix(".swift") {
      regions.append((file, lines(try read("Playground/\(file)"))))
    }
    regions.append((".ci/check-combine", lines(try read(".ci/check-combine"))))
    regions.append((".ci/check-package", lines(try read(".ci/check-package"))))
    regions.append((".ci/check-clocks", lines(try read(".ci/check-clocks"))))
    return regions
  }

  static let catalog = "Sources/MiniRedux/MiniRedux.docc"

  /// The paths of the catalog's articles, the landing page included.
  static func articles() throws -> [String] {
    let folder = root.appendingPathComponent(catalog)
    return try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }

  static func isSubsequence(_ sample: [String], of region: [String]) -> Bool {
    var remaining = sample[...]
    for line in region where line == remaining.first {
      remaining = remaining.dropFirst()
      if remaining.isEmpty { return true }
    }
    return remaining.isEmpty
  }

  @Test("every sample in the doc comments, README.md and the articles is compiled or run")
  func everySampleIsChecked() throws {
    let regions = try Self.regions()
    var samples: [(String, [String])] = []
    for file in ["Sources/MiniRedux/Store.swift", "Sources/MiniRedux/Effect.swift"] {
      samples += Self.samples(in: try Self.read(file), docComments: true).map { (file, $0) }
    }
    samples += Self.samples(in: try Self.read("README.md"), docComments: false)
      .map { ("README.md", $0) }
    #expect(samples.count >= 15)
    var articleSampleCount = 0
    for file in try Self.articles() {
      let found = Self.samples(in: try Self.read(file), docComments: false)
      articleSampleCount += found.count
      samples += found.map { (file, $0) }
    }
    #expect(articleSampleCount >= 10, "the articles' samples were not found")

    for (file, sample) in samples {
      let home = regions.first { Self.isSubsequence(sample, of: $0.lines) }
      #expect(
        home != nil,
        "a sample in \(file) is not compiled anywhere:\n\(sample.joined(separator: "\n"))")
    }
  }

  @Test("the checker rejects a sample that is nowhere")
  func checkerCanFail() throws {
    let regions = try Self.regions()
    let stray = ["store.send(.thisActionDoesNotExist)"]
    #expect(!regions.contains { Self.isSubsequence(stray, of: $0.lines) })
  }
}

/// User-facing text names what users can read (the original MiniRedux README, TCA's docs, the
/// SwiftRex and Pulse articles), never documents that only this project's authors have.
@Suite("User-facing text")
struct UserFacingTextTests {
  static var forbidden: Regex<Substring> { #/(?i)\bseeds?\s*#?\s*0\d\d|\bseeds\b|design doc/# }

  static func userFacingFiles() throws -> [String] {
    var files = ["README.md", "CHANGELOG.md"]
    for folder in ["Sources", "Playground"] {
      let url = DocSampleTests.root.appendingPathComponent(folder)
      let enumerator = FileManager.default.enumerator(atPath: url.path)
      while let path = enumerator?.nextObject() as? String {
        guard !path.hasPrefix(".cache"), path.hasSuffix(".swift") || path.hasSuffix(".md") else {
          continue
        }
        files.append("\(folder)/\(path)")
      }
    }
    return files.filter {
      FileManager.default.fileExists(atPath: DocSampleTests.root.appendingPathComponent($0).path)
    }
  }

  @Test("README, CHANGELOG, sources, docs and Playground scripts never mention seeds")
  func noSeedReferences() throws {
    let files = try Self.userFacingFiles()
    #expect(files.contains("README.md") && files.contains("Playground/Counter.swift"))
    for file in files {
      let lines = try DocSampleTests.read(file).split(separator: "\n")
      for (index, line) in lines.enumerated() where line.contains(Self.forbidden) {
        Issue.record("\(file):\(index + 1) refers to a document users do not have: \(line)")
      }
    }
  }

  @Test("LICENSE is MIT, and both source files carry its copyright line, as they travel alone")
  func licenseTravelsWithTheSources() throws {
    let license = try DocSampleTests.read("LICENSE")
    let copyright = "Copyright (c) 2026 The MiniRedux authors"
    #expect(license.hasPrefix("MIT License\n"))
    #expect(license.contains(copyright))
    #expect(license.contains("THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND"))
    for file in ["Sources/MiniRedux/Store.swift", "Sources/MiniRedux/Effect.swift"] {
      let firstLine = try DocSampleTests.read(file).prefix { $0 != "\n" }
      #expect(
        firstLine.hasPrefix("//") && firstLine.contains(copyright) && firstLine.contains("MIT"),
        "\(file) should start with a one-line MIT license notice naming \(copyright)")
    }
  }

  @Test("the check catches the old wording")
  func checkCanFail() {
    for text in ["the smallest feature (seed 004)", "Seed 002's search", "the design documents"] {
      #expect(text.contains(Self.forbidden))
    }
    for text in ["random but seeded", "let seed = 7", "MINIREDUX_STORM_SEED"] {
      #expect(!text.contains(Self.forbidden))
    }
  }
}
