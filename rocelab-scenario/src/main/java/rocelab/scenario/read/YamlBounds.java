package rocelab.scenario.read;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The limits on what a scenario file may make the reader do, so that no input can exhaust the heap or hang it before
 * a message: bytes read from the file (a device such as /dev/zero never ends), code points, nesting depth, aliases,
 * and the size of the document once aliases are followed (an "alias bomb" repeats a few anchors into billions of
 * nodes while the file stays tiny).
 */
final class YamlBounds {
    /** Largest scenario file, in bytes (and code points): far above any hand-written scenario. */
    static final int MAX_BYTES = 16 << 20;
    /** Deepest nesting of mappings and lists. */
    static final int MAX_NESTING = 50;
    /** Most aliases of collections in one document. */
    static final int MAX_ALIASES = 100;
    /** Most nodes the document may have with every alias followed (what the reader will walk). */
    static final long MAX_EXPANDED_NODES = 2_000_000;

    /** The file is larger than {@link #MAX_BYTES} (or never ends). */
    static final class TooLarge extends IOException {
        TooLarge() {
            super("too large");
        }
    }

    private YamlBounds() {}

    /**
     * The node tree of YAML text, as {@code new Yaml(options).compose(reader)} makes it (the same composer, parser
     * and default resolver) without what a {@code Yaml} object also builds and a tree does not need: its
     * constructor, representer and dumper settings (some 60 classes and java.util.logging at start-up).
     */
    static Node compose(Reader text, LoaderOptions options) {
        return new org.yaml.snakeyaml.composer.Composer(new org.yaml.snakeyaml.parser.ParserImpl(
                new org.yaml.snakeyaml.reader.StreamReader(text), options), new org.yaml.snakeyaml.resolver.Resolver(),
                options).getSingleNode();
    }

    static LoaderOptions options() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowRecursiveKeys(false);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setCodePointLimit(MAX_BYTES);
        return options;
    }

    /** The file's bytes, reading at most {@link #MAX_BYTES} + 1 of them whatever the file is. */
    static byte[] readBounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new TooLarge();
            }
            return bytes;
        }
    }

    /**
     * Refuses a document whose nodes, counted with every alias followed, exceed {@link #MAX_EXPANDED_NODES}, at the
     * innermost mapping or list that does; and one that contains itself.
     */
    static void checkExpandedSize(Doc doc, Node root) throws ScenarioException {
        count(doc, root, new IdentityHashMap<>());
    }

    private static final long IN_PROGRESS = -1;

    private static long count(Doc doc, Node node, Map<Node, Long> memo) throws ScenarioException {
        Long known = memo.get(node);
        if (known != null) {
            if (known == IN_PROGRESS) {
                throw doc.at(node, "this node contains itself through an alias; expected a tree (an alias may only"
                        + " repeat a node defined before it and outside it)");
            }
            return known;
        }
        long n = 1;
        if (node instanceof SequenceNode s) {
            memo.put(node, IN_PROGRESS);
            for (Node child : s.getValue()) {
                n += count(doc, child, memo);
            }
        } else if (node instanceof MappingNode m) {
            memo.put(node, IN_PROGRESS);
            for (NodeTuple t : m.getValue()) {
                n += count(doc, t.getKeyNode(), memo) + count(doc, t.getValueNode(), memo);
            }
        }
        if (n > MAX_EXPANDED_NODES) {
            throw doc.at(node, "this part of the document expands to more than " + MAX_EXPANDED_NODES
                    + " values once its aliases are followed (*name repeats what &name marks); expected a scenario"
                    + " that spells out less (use repeat: N in a job program, or a flows-csv file)");
        }
        memo.put(node, n);
        return n;
    }
}
