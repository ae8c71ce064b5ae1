package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The code of every module names classes by their simple names, with imports, rather than by fully qualified names
 * inline (issue 16 asked it of the RNIC and the egress port; it holds for the whole house). A qualified name stays
 * where the simple one is taken: the file imports another class of that name (Hadoop's {@code Path} beside
 * {@code java.nio.file.Path}). Comments and string literals are not code and are not checked.
 */
class SourceStyleTest {
    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.])((?:rocelab|java|javax)(?:\\.[a-z_][a-z0-9_]*)+)\\.([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("^import ([\\w.]+)\\.([A-Z]\\w*);");

    @Test
    void codeNamesClassesByTheirSimpleNames() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("rocelab-")).toList()) {
                Path main = module.resolve("src/main/java");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                    }
                }
            }
        }
        assertThat(sources).as("the modules' main sources").hasSizeGreaterThan(300);
        List<String> found = new ArrayList<>();
        for (Path file : sources) {
            found.addAll(qualifiedNamesInCode(root.relativize(file).toString(), Files.readAllLines(file)));
        }
        assertThat(found).as("fully qualified class names inline (import the class instead)").isEmpty();
    }

    @Test
    void findsAQualifiedNameInCodeButNotInCommentsStringsOrWhereTheSimpleNameIsTaken() {
        List<String> lines = List.of(
                "package rocelab.x;",
                "import org.apache.hadoop.fs.Path;",
                "/** See {@link rocelab.fabric.packet.Packet}. */",
                "class A {",
                "    private rocelab.fabric.probe.EcmpProbe ecmp = null; // rocelab.engine.Simulator",
                "    String s = \"rocelab.engine.Simulator\";",
                "    java.nio.file.Path local;",
                "    int n = java.util.Arrays.hashCode(new int[0]);",
                "}");
        assertThat(qualifiedNamesInCode("A.java", lines)).containsExactly(
                "A.java:5: rocelab.fabric.probe.EcmpProbe", "A.java:8: java.util.Arrays");
    }

    /** "file:line: name" for each qualified class name in the code of {@code lines}. */
    static List<String> qualifiedNamesInCode(String file, List<String> lines) {
        Map<String, String> imported = new HashMap<>();
        for (String line : lines) {
            Matcher m = IMPORT.matcher(line);
            if (m.find()) {
                imported.put(m.group(2), m.group(1));
            }
        }
        List<String> found = new ArrayList<>();
        boolean inComment = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Scanned scanned = scan(line, inComment);
            String code = scanned.code();
            inComment = scanned.inComment();
            if (code.startsWith("import ") || code.startsWith("package ")) {
                continue;
            }
            Matcher m = QUALIFIED.matcher(code);
            while (m.find()) {
                String pkg = m.group(1);
                String simple = m.group(2);
                boolean taken = imported.containsKey(simple) && !imported.get(simple).equals(pkg);
                if (!taken && !pkg.equals("java.lang")) {
                    found.add(file + ":" + (i + 1) + ": " + pkg + "." + simple);
                }
            }
        }
        return found;
    }

    /** A line's code, with its comments and string literals blanked, and whether a block comment goes on past it. */
    private record Scanned(String code, boolean inComment) {}

    /** {@code inComment}: the line starts inside a block comment. */
    private static Scanned scan(String line, boolean inComment) {
        StringBuilder code = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (inComment) {
                if (line.startsWith("*/", i)) {
                    inComment = false;
                    i++;
                }
                code.append(' ');
            } else if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                code.append(' ');
            } else if (line.startsWith("//", i)) {
                break;
            } else if (line.startsWith("/*", i)) {
                inComment = true;
                i++;
                code.append(' ');
            } else if (c == '"') {
                inString = true;
                code.append(' ');
            } else {
                code.append(c);
            }
        }
        return new Scanned(code.toString().strip(), inComment);
    }
}
