// Figma bridge: agents read and edit the Figma files their own MCP Bridge plugin has open.
// Tools become commands in a Firestore session registry (store.ts); the plugin long-polls its room
// through routes.ts and posts results back. Which file a call reaches: sessions.ts (the seed's flow).
import { defineDomain } from "../../mcp/define.js";
import { pluginRoutes } from "./routes.js";
import { DESIGN_VIEW } from "./views.js";
import { applyStyle } from "./tools/apply_style.js";
import { bindVariable } from "./tools/bind_variable.js";
import { cloneNode } from "./tools/clone_node.js";
import { createConnector } from "./tools/create_connector.js";
import { createDiagram } from "./tools/create_diagram.js";
import { createSection } from "./tools/create_section.js";
import { createShapeWithText } from "./tools/create_shape_with_text.js";
import { createSticky } from "./tools/create_sticky.js";
import { getBoard } from "./tools/get_board.js";
import { createComponentInstance } from "./tools/create_component_instance.js";
import { createFrame } from "./tools/create_frame.js";
import { createRectangle } from "./tools/create_rectangle.js";
import { createText } from "./tools/create_text.js";
import { deleteMultipleNodes } from "./tools/delete_multiple_nodes.js";
import { deleteNode } from "./tools/delete_node.js";
import { exportNodeAsImage } from "./tools/export_node_as_image.js";
import { getAnnotations } from "./tools/get_annotations.js";
import { getComponentProperties } from "./tools/get_component_properties.js";
import { getDesignContext } from "./tools/get_design_context.js";
import { getDocumentInfo } from "./tools/get_document_info.js";
import { getLocalComponents } from "./tools/get_local_components.js";
import { getMetadata } from "./tools/get_metadata.js";
import { getNodeInfo } from "./tools/get_node_info.js";
import { getNodesInfo } from "./tools/get_nodes_info.js";
import { getSelection } from "./tools/get_selection.js";
import { getStyles } from "./tools/get_styles.js";
import { getVariableDefs } from "./tools/get_variable_defs.js";
import { listSessions } from "./tools/list_sessions.js";
import { moveNode } from "./tools/move_node.js";
import { resizeNode } from "./tools/resize_node.js";
import { scanNodesByTypes } from "./tools/scan_nodes_by_types.js";
import { scanTextNodes } from "./tools/scan_text_nodes.js";
import { setAnnotations } from "./tools/set_annotations.js";
import { setAxisAlign } from "./tools/set_axis_align.js";
import { setCornerRadius } from "./tools/set_corner_radius.js";
import { setFillColor } from "./tools/set_fill_color.js";
import { setInstanceProperties } from "./tools/set_instance_properties.js";
import { setItemSpacing } from "./tools/set_item_spacing.js";
import { setLayoutMode } from "./tools/set_layout_mode.js";
import { setMultipleTextContents } from "./tools/set_multiple_text_contents.js";
import { setPadding } from "./tools/set_padding.js";
import { setStrokeColor } from "./tools/set_stroke_color.js";
import { setTextContent } from "./tools/set_text_content.js";
import { createPage } from "./tools/create_page.js";
import { setSizing } from "./tools/set_sizing.js";
import { setEffects } from "./tools/set_effects.js";
import { setImageFill } from "./tools/set_image_fill.js";
import { groupNodes } from "./tools/group_nodes.js";
import { ungroupNode } from "./tools/ungroup_node.js";
import { booleanOperation } from "./tools/boolean_operation.js";
import { createComponentFromNode } from "./tools/create_component_from_node.js";
import { createVariableCollection } from "./tools/create_variable_collection.js";
import { createVariable } from "./tools/create_variable.js";
import { createPaintStyle } from "./tools/create_paint_style.js";
import { createTextStyle } from "./tools/create_text_style.js";
import { setReactions } from "./tools/set_reactions.js";

export default defineDomain({
  name: "figma",
  title: "Figma bridge",
  description: "Read and edit the Figma files you have open, through the MCP Bridge plugin running in Figma.",
  instructions: [
    "Tools act in a Figma file where the user's MCP Bridge plugin is open. With one such file open, just call the tools.",
    "With several, a tool answers with an error listing the sessions (roomId, fileName, userName): ask the user which one and pass its roomId as sessionId from then on.",
    "If no session is open, tell the user to open the file in Figma and run the MCP Bridge plugin (Plugins → Development → MCP Bridge).",
    "Start with get_selection or get_metadata (a compact outline) to learn node ids; colours are r, g, b, a from 0 to 1. Scans and large documents are paged: when truncated is true, call again with cursor = nextCursor.",
    "In a FigJam board, get_board reads stickies, shapes, connectors and sections; create_sticky, create_shape_with_text, create_connector and create_section write them. Node ids may be pasted Figma links: the link's file picks the session.",
    "To build a design in code, call get_design_context (the selection by default; format html or tailwind for markup) and get_variable_defs for the design tokens; keep the variable and style names it gives rather than raw values.",
  ].join(" "),
  tools: [
    listSessions,
    getDocumentInfo,
    getSelection,
    getNodeInfo,
    getNodesInfo,
    getMetadata,
    getDesignContext,
    getVariableDefs,
    getComponentProperties,
    getAnnotations,
    getStyles,
    getLocalComponents,
    scanTextNodes,
    scanNodesByTypes,
    exportNodeAsImage,
    createFrame,
    createRectangle,
    createText,
    setTextContent,
    setMultipleTextContents,
    setFillColor,
    setStrokeColor,
    setCornerRadius,
    setLayoutMode,
    setPadding,
    setAxisAlign,
    setItemSpacing,
    moveNode,
    resizeNode,
    cloneNode,
    deleteNode,
    deleteMultipleNodes,
    createComponentInstance,
    setInstanceProperties,
    bindVariable,
    applyStyle,
    setAnnotations,
    getBoard,
    createSticky,
    createShapeWithText,
    createConnector,
    createSection,
    createDiagram,
    createPage,
    setSizing,
    setEffects,
    setImageFill,
    groupNodes,
    ungroupNode,
    booleanOperation,
    createComponentFromNode,
    createVariableCollection,
    createVariable,
    createPaintStyle,
    createTextStyle,
    setReactions,
  ],
  resources: [DESIGN_VIEW],
  routes: pluginRoutes,
});
