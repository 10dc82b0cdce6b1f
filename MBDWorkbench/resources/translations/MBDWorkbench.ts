<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1">
  <context>
    <name>MBD</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="254" />
      <source>%d of %d variants, %d failed, %.1f s, about %.0f s left</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="70" />
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="296" />
      <source>%s component [%s]: number or expression in t [s]</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="276" />
      <source>%s%s; written to %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="69" />
      <source>A second run, in a second process, estimates the error (docs/solver.md)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="24" />
      <source>Absolute tolerance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="64" />
      <source>Allow nothing grounded</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="295" />
      <location filename="../../../MBDWorkbench/commands/animate.py" line="514" />
      <location filename="../../../MBDWorkbench/commands/animate.py" line="521" />
      <source>Animate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="58" />
      <source>Assemble first</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="203" />
      <source>Axes</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="25" />
      <source>Baumgarte alpha</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="26" />
      <source>Baumgarte beta</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="197" />
      <source>Body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="118" />
      <source>Cancel study</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="239" />
      <source>Cancelling: the finished variants are kept ...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="76" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="61" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="58" />
      <source>Check model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="60" />
      <source>Close the joints before the run (assembly from the drawn positions)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="116" />
      <source>Cluster</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="48" />
      <source>Damping</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="48" />
      <source>Density</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="106" />
      <source>Design</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="81" />
      <source>Display</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="183" />
      <source>Edit joint frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="20" />
      <source>End time</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="67" />
      <source>Estimate the accuracy</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="122" />
      <source>Every critical instant (load cases and their envelope)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="133" />
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="172" />
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="168" />
      <source>FEM check</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="44" />
      <source>Fixed to the ground</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="58" />
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="52" />
      <source>Flip</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="56" />
      <source>Free angle (0: initial)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="55" />
      <source>Free length</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="49" />
      <source>Free length = initial distance</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="159" />
      <source>Free-body diagram</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="107" />
      <source>From</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="30" />
      <source>Gravity x</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="31" />
      <source>Gravity y</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="32" />
      <source>Gravity z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="50" />
      <source>Grounded</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="378" />
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="386" />
      <source>Import assembly joints</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="54" />
      <source>Integrator</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="62" />
      <source>Joint</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="38" />
      <source>Joint frame: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="327" />
      <source>Keep this frame when closing</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="202" />
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="39" />
      <source>Kind</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="133" />
      <source>Load cases to analyse:</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="313" />
      <source>Loop</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="73" />
      <source>Make statically determinate</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="102" />
      <source>Mass %.6g kg
CoG (%.4g, %.4g, %.4g) mm
Inertia about the CoG [kg mm^2]:
Ixx %.5g  Iyy %.5g  Izz %.5g
Ixy %.5g  Ixz %.5g  Iyz %.5g</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="49" />
      <source>Mass (0: from density)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="47" />
      <source>Material</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="82" />
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="259" />
      <location filename="../../../MBDWorkbench/commands/report_command.py" line="256" />
      <source>Motion-study report</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="77" />
      <source>Multibody Dynamics</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/preferences.py" line="89" />
      <source>New simulations</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="216" />
      <source>No free-body diagram: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="59" />
      <source>Offset</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="53" />
      <source>Offset along z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="88" />
      <source>Origin (%.2f, %.2f, %.2f) mm
z axis (%.3f, %.3f, %.3f)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="159" />
      <source>Origin (%.4g, %.4g, %.4g) mm
z axis (%.4f, %.4f, %.4f)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="21" />
      <source>Output step</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="105" />
      <source>Parameter</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="85" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="268" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="69" />
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="223" />
      <source>Parameter study</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="37" />
      <source>Part</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="78" />
      <source>Phase</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="168" />
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="291" />
      <source>Pick a body to see the loads on it.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/body.py" line="57" />
      <source>Pick a part (any face, edge or the object in the tree).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="133" />
      <source>Pick the bodies or joints in the tree or the 3D view, or choose them above.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="85" />
      <source>Pick the joint to drive (in the tree or its frame).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="227" />
      <source>Pick the point of application on a part (or a body in the tree).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="309" />
      <source>Play</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="43" />
      <source>Point %d</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="207" />
      <source>Point %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="69" />
      <source>Profile</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="47" />
      <source>Reference %d</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="23" />
      <source>Rel. tolerance (0: default)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="76" />
      <source>Relax the joints the mobility analysis proposes (e.g. revolute -&gt; cylindrical) before each run, so that every reaction is unique; the summary and the report list them</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="46" />
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="48" />
      <source>Reverse the z axis</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/joint_panel.py" line="60" />
      <source>Rotation</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="54" />
      <source>Rotation about z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="117" />
      <source>Run</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/plot_dock.py" line="145" />
      <source>Save PNG...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="247" />
      <source>Scale: %.0f mm = %.4g N (the largest force over the run) and %.4g N m (the largest moment: double heads). Hover a row for its components.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="110" />
      <source>Seed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="174" />
      <source>Show each load's magnitude [N or N m] at its arrow's tip</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="63" />
      <source>Simulation</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="491" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="485" />
      <location filename="../../../MBDWorkbench/commands/solve_commands.py" line="493" />
      <source>Solve</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="88" />
      <source>Solve (applies the settings)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="319" />
      <source>Speed</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="231" />
      <source>Starting the workers ...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="163" />
      <source>Status: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="147" />
      <source>Status: solving...</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="22" />
      <source>Step (0: default)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="47" />
      <source>Stiffness</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="112" />
      <source>Study folder</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="164" />
      <source>The body whose loads are drawn (or pick its part in the 3D view)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/fem_command.py" line="123" />
      <source>The largest joint reaction only</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="267" />
      <source>The study stopped: %s</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/simulation.py" line="27" />
      <source>Tikhonov epsilon</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="108" />
      <source>To</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/spring.py" line="61" />
      <source>Translational: pick a point on each of two parts. Rotational: pick a revolute or cylindrical joint in the tree.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/joint.py" line="43" />
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="68" />
      <source>Type</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/free_body.py" line="172" />
      <source>Values at the arrows</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="109" />
      <source>Variants (grid points or samples)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="111" />
      <source>Workers</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="82" />
      <source>f(t) =</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="150" />
      <source>f(t) in %s, t in s, e.g. 90*sin(2*pi*t)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/force_element.py" line="52" />
      <source>given (unchecked: %s)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/study_panel.py" line="115" />
      <source>local (worker processes on this computer)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/panels/profiles.py" line="251" />
      <source>part '%s' is not a body yet: make it a body first</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/animate.py" line="350" />
      <source>t = %.4f s (sample %d of %d)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_About</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/about.py" line="33" />
      <location filename="../../../MBDWorkbench/commands/about.py" line="46" />
      <source>About Multibody Dynamics</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/about.py" line="34" />
      <source>Version and installation of the Multibody Dynamics workbench</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Body</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="97" />
      <source>Body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="98" />
      <source>Make the selected parts rigid bodies (mass from their solids, steel by default)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Driver</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="193" />
      <source>Drive the selected joint (motor): angle or displacement as a function of time</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="192" />
      <source>Driver</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_EditJointFrame</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="176" />
      <source>Edit joint frame</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="177" />
      <source>Flip, offset or rotate the frame of the selected joint</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ExportJSON</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="343" />
      <source>Export JSON model</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="344" />
      <source>Write the model as a JSON file for the command-line solver</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Force</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="296" />
      <source>Force</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="297" />
      <source>Point force at the picked point of a part (or at the CoG of a selected body)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_GroundedBody</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="114" />
      <source>Grounded body</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="115" />
      <source>Make the selected parts bodies fixed to the ground</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_ImportAssembly</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="362" />
      <source>Import assembly joints</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_Simulation</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="54" />
      <source>Create the simulation container (end time, integrator, gravity)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="53" />
      <source>Simulation</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>MBD_SpringDamper</name>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="259" />
      <source>Spring-damper</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../../MBDWorkbench/commands/model_commands.py" line="260" />
      <source>Spring-damper between two picked points on two parts, or a rotational one on the selected joint (%s)</source>
      <translation type="unfinished" />
    </message>
  </context>
</TS>
