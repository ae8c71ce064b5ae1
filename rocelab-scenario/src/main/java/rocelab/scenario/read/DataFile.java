package rocelab.scenario.read;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A file a scenario names ({@code file: flow.txt}): as written, resolved against the scenario's folder, and as
 * messages about its content name it (next to the scenario file, as the user named that).
 */
record DataFile(String written, Path resolved, String shown) {
    /** The file named at {@code fileNode}; {@code what} says what it should be ("the path of an ns-3 flow file"). */
    static DataFile at(Doc doc, Node fileNode, Path baseDir, String what) throws ScenarioException {
        String file = doc.text(fileNode, "file", what);
        try {
            return new DataFile(file, baseDir.resolve(file).toAbsolutePath().normalize(), shown(doc, baseDir, file));
        } catch (InvalidPathException e) {
            throw doc.at(fileNode, Doc.quoted(file) + " is not a valid path; expected " + what);
        }
    }

    /** How {@code file} is named in messages: next to the scenario file, or as is when absolute. */
    static String shown(Doc doc, Path baseDir, String file) {
        Path f = Path.of(file);
        if (f.isAbsolute()) {
            return f.normalize().toString();
        }
        try {
            return Path.of(doc.file()).resolveSibling(f).normalize().toString();
        } catch (InvalidPathException e) {
            return baseDir.resolve(f).toAbsolutePath().normalize().toString();
        }
    }

    /** The file's text; a missing, unreadable or non-UTF-8 file is an error at {@code fileNode}. */
    String text(Doc doc, Node fileNode, String expected) throws ScenarioException {
        return FlowsCsvReader.load(doc, fileNode, resolved, expected);
    }
}
