/**
 * The component library's styles: its base, variables and global classes, then one file per
 * component the dashboard uses (or that those are built from), instead of the stylesheet of every
 * component (docs/performance.md, "The dashboard's bundle"). A page that uses a component not yet
 * here adds its file, after those it is built from; the kept screenshots (test/e2e/screenshots)
 * show a component left unstyled.
 */
import "@mantine/core/styles/baseline.css";
import "@mantine/core/styles/default-css-variables.css";
import "@mantine/core/styles/global.css";
// Built on by the components below.
import "@mantine/core/styles/UnstyledButton.css";
import "@mantine/core/styles/Paper.css";
import "@mantine/core/styles/Text.css";
import "@mantine/core/styles/Input.css";
import "@mantine/core/styles/InlineInput.css";
import "@mantine/core/styles/ActionIcon.css";
import "@mantine/core/styles/CloseButton.css";
import "@mantine/core/styles/Combobox.css";
import "@mantine/core/styles/Loader.css";
import "@mantine/core/styles/Overlay.css";
import "@mantine/core/styles/ModalBase.css";
// The dashboard's components, by name.
import "@mantine/core/styles/Alert.css";
import "@mantine/core/styles/Anchor.css";
import "@mantine/core/styles/Badge.css";
import "@mantine/core/styles/Button.css";
import "@mantine/core/styles/Card.css";
import "@mantine/core/styles/Checkbox.css";
import "@mantine/core/styles/Code.css";
import "@mantine/core/styles/Container.css";
import "@mantine/core/styles/Fieldset.css";
import "@mantine/core/styles/Group.css";
import "@mantine/core/styles/List.css";
import "@mantine/core/styles/Modal.css";
import "@mantine/core/styles/NavLink.css";
import "@mantine/core/styles/NumberInput.css";
import "@mantine/core/styles/PasswordInput.css";
import "@mantine/core/styles/Radio.css";
import "@mantine/core/styles/SegmentedControl.css";
import "@mantine/core/styles/Stack.css";
import "@mantine/core/styles/Table.css";
import "@mantine/core/styles/Timeline.css";
import "@mantine/core/styles/Title.css";
import "@mantine/core/styles/VisuallyHidden.css";
