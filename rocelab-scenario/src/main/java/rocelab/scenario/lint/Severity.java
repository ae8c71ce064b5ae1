package rocelab.scenario.lint;

/** How bad a finding is: an error breaks the fabric's promise (drops on a lossless class, a deadlock), a warning
 * costs performance or hides trouble, info is worth knowing. */
public enum Severity {
    ERROR("error"),
    WARNING("warning"),
    INFO("info");

    private final String key;

    Severity(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
