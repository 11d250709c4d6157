/** Test support shared by the modules' tests: the real test data and its expected values. */
module org.dataloader4j.testkit {
    requires org.junit.jupiter.api;
    requires com.fasterxml.jackson.databind;

    exports org.dataloader4j.testkit;
}
