package rocelab.cli;

import java.nio.file.Path;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** Reads the scenario a command names: a file, a built-in example, or (neither) the built-in demo. */
final class ScenarioSource {
    private ScenarioSource() {}

    static ScenarioConfig read(Path file, String example) throws ScenarioException {
        ScenarioReader reader = new ScenarioReader();
        if (example != null) {
            return reader.readExample(example);
        }
        return file == null ? reader.readDemo() : reader.read(file);
    }
}
